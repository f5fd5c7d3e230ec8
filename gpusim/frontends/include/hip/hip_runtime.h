/* <hip/hip_runtime.h> where no ROCm is installed: gpusim's HIP header (device side, vector
   types and the host API's declarations). */
#include "../gpusim_hip.h"
