// The process-wide helpers of acl_base.h: data type sizes, float16 conversion and the emulated
// SoC's name. The float16 conversions go through core/dtype, so they round as every other
// float16 store does (to nearest, ties to even).
#include <string>

#include "acl/acl_base.h"
#include "core/dtype.h"
#include "core/product.h"

extern "C" {

// Bytes per element as CANN's runtime answers them, for every aclDataType and not only the
// dtypes the harness computes with: 0 for strings and undefined, 1 for the sub-byte integer
// types, and 8 for the types CANN's table does not name (the float6 and float4 formats).
size_t aclDataTypeSize(aclDataType dataType) {
  switch (dataType) {
    case ACL_STRING:
    case ACL_DT_UNDEFINED:
      return 0;
    case ACL_UINT1:
    case ACL_INT4:
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
      return 1;
    case ACL_FLOAT16:
    case ACL_INT16:
    case ACL_UINT16:
    case ACL_BF16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
      return 4;
    case ACL_COMPLEX128:
      return 16;
    default:
      return 8;
  }
}

float aclFloat16ToFloat(aclFloat16 value) {
  return static_cast<float>(aclnn_check::DecodeHalf(value));
}

aclFloat16 aclFloatToFloat16(float value) { return aclnn_check::EncodeHalf(value); }

const char* aclrtGetSocName() {
  // One string per thread, refreshed from ACLNN_CPU_SOC on every call.
  thread_local std::string soc;
  soc = aclnn_check::EmulatedSocName();
  return soc.c_str();
}

}  // extern "C"
