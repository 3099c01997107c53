// STREAM's triad, a[i] = b[i] + s * c[i] over 16,777,216 float32 elements: the memory bandwidth
// the machine gives a simple streaming loop with `threads` threads, the yardstick the operators'
// GB/s are read against. Credited 3 arrays x 4 bytes per element, STREAM's convention.
#pragma once

namespace aclnn_check::bench {

void RegisterTriad(int threads);

}  // namespace aclnn_check::bench
