/* <hip/hip_vector_types.h> where no ROCm is installed: float4, int2, ... and make_*. */
#include "../gpusim_hip.h"
