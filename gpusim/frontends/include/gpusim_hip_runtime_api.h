/* gpusim_hip_runtime_api.h declares the host side of the HIP runtime API that a .hip
   file's host code calls, so that a file written for hipcc (a main() that allocates,
   copies and launches) compiles as it is. gpusim compiles only the device code and
   never runs the host code: the launch comes from the file's // gpusim-launch and
   // gpusim-arg lines. These are declarations only, as the host compiler needs them
   to check that code; nothing here is ever defined or called. */
#ifndef GPUSIM_HIP_RUNTIME_API_H
#define GPUSIM_HIP_RUNTIME_API_H

/* what hipcc's headers bring in too, and host code relies on (memset, malloc, sqrt, uint32_t) */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cstdlib>
#include <cmath>

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
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef unsigned long long hipTextureObject_t;

/* flags of stream creation and host allocation (hipStreamDefault is also passed where a stream goes) */
#define hipStreamDefault 0x00
#define hipStreamNonBlocking 0x01
#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostMallocCoherent 0x40000000
#define hipHostMallocNonCoherent 0x80000000
#define HIP_SYMBOL(symbol) (&(symbol))
/* the keys of hipModuleLaunchKernel's ``extra`` array */
#define HIP_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define HIP_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)
#define HIP_LAUNCH_PARAM_END ((void *)0x03)

typedef enum hipDeviceAttribute_t {
  hipDeviceAttributeCooperativeLaunch = 2,
  hipDeviceAttributeCooperativeMultiDeviceLaunch = 3,
  hipDeviceAttributeMaxThreadsPerBlock = 56,
  hipDeviceAttributeMultiprocessorCount = 63,
  hipDeviceAttributeWarpSize = 87,
} hipDeviceAttribute_t;

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
  int maxThreadsPerMultiProcessor;
  int computeMode;
  int memoryClockRate;
  int memoryBusWidth;
  int pciDomainID;
  int pciBusID;
  int pciDeviceID;
  int concurrentKernels;
  int cooperativeLaunch;
  size_t totalConstMem;
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
__GPUSIM_HOST_API hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags);
__GPUSIM_HOST_API hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags = 0);
__GPUSIM_HOST_API hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned int flags);
__GPUSIM_HOST_API hipError_t hipEventQuery(hipEvent_t event);
__GPUSIM_HOST_API hipError_t hipHostGetDevicePointer(void **device_ptr, void *host_ptr, unsigned int flags);
__GPUSIM_HOST_API hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                         size_t height, hipMemcpyKind kind);
__GPUSIM_HOST_API hipError_t hipMemcpyPeer(void *dst, int dst_device, const void *src, int src_device, size_t bytes);
__GPUSIM_HOST_API hipError_t hipMemGetInfo(size_t *free_bytes, size_t *total_bytes);
__GPUSIM_HOST_API hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attribute, int device);
__GPUSIM_HOST_API hipError_t hipDeviceCanAccessPeer(int *can, int device, int peer);
__GPUSIM_HOST_API hipError_t hipDeviceEnablePeerAccess(int peer, unsigned int flags);
__GPUSIM_HOST_API hipError_t hipDeviceDisablePeerAccess(int peer);
__GPUSIM_HOST_API hipError_t hipMemcpyToSymbol(const void *symbol, const void *src, size_t bytes, size_t offset = 0,
                                               hipMemcpyKind kind = hipMemcpyHostToDevice);
__GPUSIM_HOST_API hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t bytes, size_t offset = 0,
                                                 hipMemcpyKind kind = hipMemcpyDeviceToHost);
__GPUSIM_HOST_API hipError_t hipGetSymbolAddress(void **device_ptr, const void *symbol);
__GPUSIM_HOST_API hipError_t hipGetSymbolSize(size_t *bytes, const void *symbol);
__GPUSIM_HOST_API hipError_t hipModuleLoad(hipModule_t *module, const char *path);
__GPUSIM_HOST_API hipError_t hipModuleUnload(hipModule_t module);
__GPUSIM_HOST_API hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *name);
__GPUSIM_HOST_API hipError_t hipModuleLaunchKernel(hipFunction_t function, unsigned int grid_x, unsigned int grid_y,
                                                   unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                                                   unsigned int block_z, unsigned int shared_bytes, hipStream_t stream,
                                                   void **params, void **extra);
__GPUSIM_HOST_API hipError_t hipLaunchKernel(const void *function, dim3 grid, dim3 block, void **args,
                                             size_t shared_bytes = 0, hipStream_t stream = 0);
__GPUSIM_HOST_API hipError_t hipLaunchCooperativeKernel(const void *function, dim3 grid, dim3 block, void **args,
                                                        unsigned int shared_bytes = 0, hipStream_t stream = 0);
__GPUSIM_HOST_API hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *function,
                                                                          int block_size, size_t shared_bytes);
__GPUSIM_HOST_API hipError_t hipOccupancyMaxPotentialBlockSize(int *grid_size, int *block_size, const void *function,
                                                               size_t shared_bytes, int block_limit);
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
/* the typed forms HIP gives for kernels and symbols */
template <class F> __host__ hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, F function,
                                                                                    int block_size,
                                                                                    size_t shared_bytes) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (const void *)function, block_size, shared_bytes);
}
template <class F> __host__ hipError_t hipOccupancyMaxPotentialBlockSize(int *grid_size, int *block_size, F function,
                                                                         size_t shared_bytes = 0, int block_limit = 0) {
  return hipOccupancyMaxPotentialBlockSize(grid_size, block_size, (const void *)function, shared_bytes, block_limit);
}
template <class F> __host__ hipError_t hipLaunchCooperativeKernel(F function, dim3 grid, dim3 block, void **args,
                                                                  unsigned int shared_bytes = 0,
                                                                  hipStream_t stream = 0) {
  return hipLaunchCooperativeKernel((const void *)function, grid, block, args, shared_bytes, stream);
}

#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, ...) \
  do {                                                                      \
    kernel<<<(grid), (block), (shared_bytes), (stream)>>>(__VA_ARGS__);     \
  } while (0)

#endif
