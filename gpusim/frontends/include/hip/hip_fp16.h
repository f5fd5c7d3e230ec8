/* <hip/hip_fp16.h> where no ROCm is installed: __half, __half2 and their functions. */
#include "../gpusim_hip.h"
#include "../gpusim_hip_fp16.h"
