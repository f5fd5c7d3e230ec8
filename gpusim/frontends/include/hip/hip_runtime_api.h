/* <hip/hip_runtime_api.h> where no ROCm is installed: the host API's declarations. */
#include "../gpusim_hip.h"
