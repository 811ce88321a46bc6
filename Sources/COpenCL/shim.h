#ifndef FREEDOM_KEYS_COPENCL_SHIM_H
#define FREEDOM_KEYS_COPENCL_SHIM_H
/* OpenCL through the ICD loader (libOpenCL.so.1, Debian ocl-icd-libopencl1), which is optional,
   so it is never linked: CryptoPrimitives opens it with dlopen and finds its entry points with
   dlsym. This header declares only the types, the constants and the function-pointer types of the
   OpenCL 1.2 calls the engine makes (the Khronos ABI, the same on every Linux); there is no
   `link` line in the module map. Where Debian's opencl-headers are installed, every value here
   is checked against <CL/cl.h> when the package is built. */
#include <stddef.h>
#include <stdint.h>

typedef int32_t fk_cl_int;
typedef uint32_t fk_cl_uint;
typedef uint64_t fk_cl_ulong;
typedef fk_cl_ulong fk_cl_bitfield;

/* The same struct tags as <CL/cl.h>, so the pointer types are the header's. */
typedef struct _cl_platform_id *fk_cl_platform_id;
typedef struct _cl_device_id *fk_cl_device_id;
typedef struct _cl_context *fk_cl_context;
typedef struct _cl_command_queue *fk_cl_command_queue;
typedef struct _cl_mem *fk_cl_mem;
typedef struct _cl_program *fk_cl_program;
typedef struct _cl_kernel *fk_cl_kernel;
typedef struct _cl_event *fk_cl_event;

#define FK_CL_SUCCESS 0
#define FK_CL_DEVICE_NOT_FOUND (-1)
#define FK_CL_BUILD_PROGRAM_FAILURE (-11)
#define FK_CL_PLATFORM_NOT_FOUND_KHR (-1001)

#define FK_CL_PLATFORM_VERSION 0x0901u
#define FK_CL_PLATFORM_NAME 0x0902u
#define FK_CL_DEVICE_TYPE_CPU (1ull << 1)
#define FK_CL_DEVICE_TYPE_GPU (1ull << 2)
#define FK_CL_DEVICE_TYPE_ALL 0xFFFFFFFFull
#define FK_CL_DEVICE_TYPE 0x1000u
#define FK_CL_DEVICE_MAX_COMPUTE_UNITS 0x1002u
#define FK_CL_DEVICE_MAX_WORK_GROUP_SIZE 0x1004u
#define FK_CL_DEVICE_MAX_MEM_ALLOC_SIZE 0x1010u
#define FK_CL_DEVICE_AVAILABLE 0x1027u
#define FK_CL_DEVICE_NAME 0x102Bu
#define FK_CL_DEVICE_VERSION 0x102Fu
#define FK_CL_DRIVER_VERSION 0x102Du
#define FK_CL_PROGRAM_BUILD_LOG 0x1183u
#define FK_CL_MEM_READ_WRITE (1ull << 0)
#define FK_CL_MEM_WRITE_ONLY (1ull << 1)
#define FK_CL_MEM_READ_ONLY (1ull << 2)
#define FK_CL_TRUE 1u

typedef fk_cl_int (*fk_clGetPlatformIDs)(fk_cl_uint, fk_cl_platform_id *, fk_cl_uint *);
typedef fk_cl_int (*fk_clGetPlatformInfo)(fk_cl_platform_id, fk_cl_uint, size_t, void *, size_t *);
typedef fk_cl_int (*fk_clGetDeviceIDs)(
    fk_cl_platform_id, fk_cl_bitfield, fk_cl_uint, fk_cl_device_id *, fk_cl_uint *);
typedef fk_cl_int (*fk_clGetDeviceInfo)(fk_cl_device_id, fk_cl_uint, size_t, void *, size_t *);
typedef fk_cl_context (*fk_clCreateContext)(
    const intptr_t *, fk_cl_uint, const fk_cl_device_id *,
    void (*)(const char *, const void *, size_t, void *), void *, fk_cl_int *);
typedef fk_cl_command_queue (*fk_clCreateCommandQueue)(
    fk_cl_context, fk_cl_device_id, fk_cl_bitfield, fk_cl_int *);
typedef fk_cl_program (*fk_clCreateProgramWithSource)(
    fk_cl_context, fk_cl_uint, const char **, const size_t *, fk_cl_int *);
typedef fk_cl_int (*fk_clBuildProgram)(
    fk_cl_program, fk_cl_uint, const fk_cl_device_id *, const char *,
    void (*)(fk_cl_program, void *), void *);
typedef fk_cl_int (*fk_clGetProgramBuildInfo)(
    fk_cl_program, fk_cl_device_id, fk_cl_uint, size_t, void *, size_t *);
typedef fk_cl_kernel (*fk_clCreateKernel)(fk_cl_program, const char *, fk_cl_int *);
typedef fk_cl_mem (*fk_clCreateBuffer)(fk_cl_context, fk_cl_bitfield, size_t, void *, fk_cl_int *);
typedef fk_cl_int (*fk_clSetKernelArg)(fk_cl_kernel, fk_cl_uint, size_t, const void *);
typedef fk_cl_int (*fk_clEnqueueWriteBuffer)(
    fk_cl_command_queue, fk_cl_mem, fk_cl_uint, size_t, size_t, const void *, fk_cl_uint,
    const fk_cl_event *, fk_cl_event *);
typedef fk_cl_int (*fk_clEnqueueReadBuffer)(
    fk_cl_command_queue, fk_cl_mem, fk_cl_uint, size_t, size_t, void *, fk_cl_uint,
    const fk_cl_event *, fk_cl_event *);
typedef fk_cl_int (*fk_clEnqueueFillBuffer)(
    fk_cl_command_queue, fk_cl_mem, const void *, size_t, size_t, size_t, fk_cl_uint,
    const fk_cl_event *, fk_cl_event *);
typedef fk_cl_int (*fk_clEnqueueNDRangeKernel)(
    fk_cl_command_queue, fk_cl_kernel, fk_cl_uint, const size_t *, const size_t *,
    const size_t *, fk_cl_uint, const fk_cl_event *, fk_cl_event *);
typedef fk_cl_int (*fk_clFinish)(fk_cl_command_queue);
typedef fk_cl_int (*fk_clReleaseMemObject)(fk_cl_mem);
typedef fk_cl_int (*fk_clReleaseKernel)(fk_cl_kernel);
typedef fk_cl_int (*fk_clReleaseProgram)(fk_cl_program);
typedef fk_cl_int (*fk_clReleaseCommandQueue)(fk_cl_command_queue);
typedef fk_cl_int (*fk_clReleaseContext)(fk_cl_context);

#if __has_include(<CL/cl.h>)
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
_Static_assert(sizeof(fk_cl_int) == sizeof(cl_int) && sizeof(fk_cl_ulong) == sizeof(cl_ulong),
               "OpenCL scalar types");
_Static_assert(FK_CL_SUCCESS == CL_SUCCESS && FK_CL_DEVICE_NOT_FOUND == CL_DEVICE_NOT_FOUND &&
                   FK_CL_BUILD_PROGRAM_FAILURE == CL_BUILD_PROGRAM_FAILURE,
               "OpenCL error codes");
_Static_assert(FK_CL_PLATFORM_VERSION == CL_PLATFORM_VERSION &&
                   FK_CL_PLATFORM_NAME == CL_PLATFORM_NAME,
               "OpenCL platform queries");
_Static_assert(FK_CL_DEVICE_TYPE_CPU == CL_DEVICE_TYPE_CPU &&
                   FK_CL_DEVICE_TYPE_GPU == CL_DEVICE_TYPE_GPU &&
                   FK_CL_DEVICE_TYPE_ALL == CL_DEVICE_TYPE_ALL && FK_CL_DEVICE_TYPE == CL_DEVICE_TYPE,
               "OpenCL device types");
_Static_assert(FK_CL_DEVICE_MAX_COMPUTE_UNITS == CL_DEVICE_MAX_COMPUTE_UNITS &&
                   FK_CL_DEVICE_MAX_WORK_GROUP_SIZE == CL_DEVICE_MAX_WORK_GROUP_SIZE &&
                   FK_CL_DEVICE_MAX_MEM_ALLOC_SIZE == CL_DEVICE_MAX_MEM_ALLOC_SIZE &&
                   FK_CL_DEVICE_AVAILABLE == CL_DEVICE_AVAILABLE &&
                   FK_CL_DEVICE_NAME == CL_DEVICE_NAME && FK_CL_DEVICE_VERSION == CL_DEVICE_VERSION &&
                   FK_CL_DRIVER_VERSION == CL_DRIVER_VERSION,
               "OpenCL device queries");
_Static_assert(FK_CL_PROGRAM_BUILD_LOG == CL_PROGRAM_BUILD_LOG &&
                   FK_CL_MEM_READ_WRITE == CL_MEM_READ_WRITE &&
                   FK_CL_MEM_WRITE_ONLY == CL_MEM_WRITE_ONLY &&
                   FK_CL_MEM_READ_ONLY == CL_MEM_READ_ONLY && FK_CL_TRUE == CL_TRUE,
               "OpenCL program and memory flags");
_Static_assert(__builtin_types_compatible_p(fk_clGetPlatformIDs, __typeof__(&clGetPlatformIDs)) &&
                   __builtin_types_compatible_p(fk_clGetDeviceIDs, __typeof__(&clGetDeviceIDs)) &&
                   __builtin_types_compatible_p(fk_clGetDeviceInfo, __typeof__(&clGetDeviceInfo)) &&
                   __builtin_types_compatible_p(fk_clBuildProgram, __typeof__(&clBuildProgram)) &&
                   __builtin_types_compatible_p(fk_clCreateBuffer, __typeof__(&clCreateBuffer)) &&
                   __builtin_types_compatible_p(fk_clSetKernelArg, __typeof__(&clSetKernelArg)) &&
                   __builtin_types_compatible_p(fk_clEnqueueNDRangeKernel,
                                                __typeof__(&clEnqueueNDRangeKernel)) &&
                   __builtin_types_compatible_p(fk_clEnqueueReadBuffer,
                                                __typeof__(&clEnqueueReadBuffer)) &&
                   __builtin_types_compatible_p(fk_clEnqueueFillBuffer,
                                                __typeof__(&clEnqueueFillBuffer)),
               "OpenCL function types");
_Static_assert(
                   __builtin_types_compatible_p(fk_clGetPlatformInfo, __typeof__(&clGetPlatformInfo)) &&
                   __builtin_types_compatible_p(fk_clCreateContext, __typeof__(&clCreateContext)) &&
                   __builtin_types_compatible_p(fk_clCreateCommandQueue, __typeof__(&clCreateCommandQueue)) &&
                   __builtin_types_compatible_p(fk_clCreateProgramWithSource, __typeof__(&clCreateProgramWithSource)) &&
                   __builtin_types_compatible_p(fk_clGetProgramBuildInfo, __typeof__(&clGetProgramBuildInfo)) &&
                   __builtin_types_compatible_p(fk_clCreateKernel, __typeof__(&clCreateKernel)) &&
                   __builtin_types_compatible_p(fk_clEnqueueWriteBuffer, __typeof__(&clEnqueueWriteBuffer)) &&
                   __builtin_types_compatible_p(fk_clFinish, __typeof__(&clFinish)) &&
                   __builtin_types_compatible_p(fk_clReleaseMemObject, __typeof__(&clReleaseMemObject)) &&
                   __builtin_types_compatible_p(fk_clReleaseKernel, __typeof__(&clReleaseKernel)) &&
                   __builtin_types_compatible_p(fk_clReleaseProgram, __typeof__(&clReleaseProgram)) &&
                   __builtin_types_compatible_p(fk_clReleaseCommandQueue, __typeof__(&clReleaseCommandQueue)) &&
                   __builtin_types_compatible_p(fk_clReleaseContext, __typeof__(&clReleaseContext)),
    "OpenCL function types");
#endif

#endif
