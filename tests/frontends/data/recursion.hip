#include <hip/hip_runtime.h>
// A recursive device function: its calls keep their frames on a stack in scratch memory
// (.amdhsa_uses_dynamic_stack), reached through scratch_store/scratch_load at the stack pointer.
// gpusim-launch: grid=1,1,1 block=64,1,1
// gpusim-arg: n buffer i32[64] init=randint(0,12) seed=1
// gpusim-arg: y buffer i32[64] out
// gpusim-check: y == np.array([1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233])[n]
__device__ __attribute__((noinline)) int fib(int v) { return v < 2 ? 1 : fib(v - 1) + fib(v - 2); }
__global__ void rec(const int* n, int* y) {
  int i = threadIdx.x;
  y[i] = fib(n[i]);
}
