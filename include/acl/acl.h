// The header CANN's programs include (CANN's acl/acl.h). CANN's also pulls in acl_op.h and
// acl_mdl.h (single-operator compilation and offline models); the bundled providers implement
// neither, so this copy stops at the runtime.
#pragma once

#include "acl/acl_rt.h"
