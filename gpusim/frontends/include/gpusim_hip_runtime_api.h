/* gpusim_hip_runtime_api.h declares the host side of the HIP runtime API that a .hip
   file's host code calls, so that a file written for hipcc (a main() that allocates,
   copies and launches) compiles as it is. gpusim compiles only the device code and
   never runs the host code: the launch comes from the file's // gpusim-launch and
   // gpusim-arg lines. These are declarations only, as the host compiler needs them
   to check that code; nothing here is ever defined or called. */
#ifndef GPUSIM_HIP_RUNTIME_API_H
#define GPUSIM_HIP_RUNTIME_API_H

#include <stddef.h>

typedef enum hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorNotInitialized = 3,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidDevicePointer = 17,
  hipErrorLaunchFailure = 719,
  hipErrorNotReady = 600,
  hipErrorUnknown = 999,
} hipError_t;

typedef enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4,
} hipMemcpyKind;

typedef struct ihipStream_t *hipStream_t;
typedef struct ihipEvent_t *hipEvent_t;

/* The launch geometry of <<<grid, block>>> and hipLaunchKernelGGL. */
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int x_ = 1, unsigned int y_ = 1, unsigned int z_ = 1)
      : x(x_), y(y_), z(z_) {}
};

typedef struct hipDeviceProp_t {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  int multiProcessorCount;
  int major;
  int minor;
  int l2CacheSize;
  int maxSharedMemoryPerMultiProcessor;
  char gcnArchName[256];
} hipDeviceProp_t;

#define __GPUSIM_HOST_API extern "C" __host__
__GPUSIM_HOST_API hipError_t hipMalloc(void **ptr, size_t bytes);
__GPUSIM_HOST_API hipError_t hipMallocManaged(void **ptr, size_t bytes, unsigned int flags = 1);
__GPUSIM_HOST_API hipError_t hipHostMalloc(void **ptr, size_t bytes, unsigned int flags = 0);
__GPUSIM_HOST_API hipError_t hipFree(void *ptr);
__GPUSIM_HOST_API hipError_t hipHostFree(void *ptr);
__GPUSIM_HOST_API hipError_t hipMemcpy(void *dst, const void *src, size_t bytes, hipMemcpyKind kind);
__GPUSIM_HOST_API hipError_t hipMemcpyAsync(void *dst, const void *src, size_t bytes, hipMemcpyKind kind,
                                            hipStream_t stream = 0);
__GPUSIM_HOST_API hipError_t hipMemset(void *dst, int value, size_t bytes);
__GPUSIM_HOST_API hipError_t hipMemsetAsync(void *dst, int value, size_t bytes, hipStream_t stream = 0);
__GPUSIM_HOST_API hipError_t hipDeviceSynchronize(void);
__GPUSIM_HOST_API hipError_t hipDeviceReset(void);
__GPUSIM_HOST_API hipError_t hipGetLastError(void);
__GPUSIM_HOST_API hipError_t hipPeekAtLastError(void);
__GPUSIM_HOST_API const char *hipGetErrorString(hipError_t error);
__GPUSIM_HOST_API const char *hipGetErrorName(hipError_t error);
__GPUSIM_HOST_API hipError_t hipSetDevice(int device);
__GPUSIM_HOST_API hipError_t hipGetDevice(int *device);
__GPUSIM_HOST_API hipError_t hipGetDeviceCount(int *count);
__GPUSIM_HOST_API hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device);
__GPUSIM_HOST_API hipError_t hipStreamCreate(hipStream_t *stream);
__GPUSIM_HOST_API hipError_t hipStreamDestroy(hipStream_t stream);
__GPUSIM_HOST_API hipError_t hipStreamSynchronize(hipStream_t stream);
__GPUSIM_HOST_API hipError_t hipEventCreate(hipEvent_t *event);
__GPUSIM_HOST_API hipError_t hipEventDestroy(hipEvent_t event);
__GPUSIM_HOST_API hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream = 0);
__GPUSIM_HOST_API hipError_t hipEventSynchronize(hipEvent_t event);
__GPUSIM_HOST_API hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop);
/* What clang calls for <<<grid, block, shared bytes, stream>>> (HIP's launch API). */
__GPUSIM_HOST_API hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shared_bytes = 0,
                                                        hipStream_t stream = 0);
__GPUSIM_HOST_API hipError_t __hipPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared_bytes,
                                                       hipStream_t *stream);
#undef __GPUSIM_HOST_API

template <class T> __host__ hipError_t hipMalloc(T **ptr, size_t bytes) { return hipMalloc((void **)ptr, bytes); }
template <class T> __host__ hipError_t hipMallocManaged(T **ptr, size_t bytes, unsigned int flags = 1) {
  return hipMallocManaged((void **)ptr, bytes, flags);
}
template <class T> __host__ hipError_t hipHostMalloc(T **ptr, size_t bytes, unsigned int flags = 0) {
  return hipHostMalloc((void **)ptr, bytes, flags);
}

#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, ...) \
  do {                                                                      \
    kernel<<<(grid), (block), (shared_bytes), (stream)>>>(__VA_ARGS__);     \
  } while (0)

#endif
