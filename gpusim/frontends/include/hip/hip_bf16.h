/* <hip/hip_bf16.h> where no ROCm is installed: __hip_bfloat16, __hip_bfloat162 and their functions. */
#include "../gpusim_hip.h"
#include "../gpusim_hip_bf16.h"
