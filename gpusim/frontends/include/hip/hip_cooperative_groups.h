/* <hip/hip_cooperative_groups.h> where no ROCm is installed: blocks and their tiles. */
#include "../gpusim_hip.h"
#include "../gpusim_hip_cooperative_groups.h"
