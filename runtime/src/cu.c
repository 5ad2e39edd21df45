/* cu.c: the driver API's entry points that programs around the runtime
 * use (cuda.h), answered from the runtime's devices. As in CUDA, every
 * call but cuInit, cuDriverGetVersion and the error names needs cuInit. */
#include "rt.h"
#include "cuda.h"
#include <stdatomic.h>

static _Atomic int inited;

static const struct { CUresult r; const char *name, *str; } drv_errs[] = {
  {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
  {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
  {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
  {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
  {CUDA_ERROR_DEINITIALIZED, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"},
  {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
  {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
  {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
  {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
  {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
  {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
  {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
  {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
  {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
  {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

static CUresult name_of(CUresult e, const char **s, int str) {
  if (!s) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < sizeof drv_errs / sizeof *drv_errs; i++)
    if (drv_errs[i].r == e) {
      *s = str ? drv_errs[i].str : drv_errs[i].name;
      return CUDA_SUCCESS;
    }
  *s = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorName(CUresult e, const char **s) { RT_API(); return name_of(e, s, 0); }
CUresult cuGetErrorString(CUresult e, const char **s) { RT_API(); return name_of(e, s, 1); }

CUresult cuInit(unsigned int flags) {
  RT_API();
  if (flags) return CUDA_ERROR_INVALID_VALUE;
  inited = 1;
  return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *v) {
  RT_API();
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  return cudaDriverGetVersion(v) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *n) {
  RT_API();
  if (!inited) return CUDA_ERROR_NOT_INITIALIZED;
  if (!n) return CUDA_ERROR_INVALID_VALUE;
  *n = rt_ndev();
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *d, int ordinal) {
  RT_API();
  if (!inited) return CUDA_ERROR_NOT_INITIALIZED;
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  if (!rt_dev_at(ordinal)) return CUDA_ERROR_INVALID_DEVICE;
  *d = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
  RT_API();
  if (!inited) return CUDA_ERROR_NOT_INITIALIZED;
  if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (!rt_dev_at(d)) return CUDA_ERROR_INVALID_DEVICE;
  snprintf(name, (size_t)len, "%s", rt_dev_at(d)->prop.name);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
  RT_API();
  if (!inited) return CUDA_ERROR_NOT_INITIALIZED;
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  if (!rt_dev_at(d)) return CUDA_ERROR_INVALID_DEVICE;
  return cudaDeviceGetAttribute(v, (enum cudaDeviceAttr)a, d) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(size_t *bytes, CUdevice d) {
  RT_API();
  if (!inited) return CUDA_ERROR_NOT_INITIALIZED;
  if (!bytes) return CUDA_ERROR_INVALID_VALUE;
  if (!rt_dev_at(d)) return CUDA_ERROR_INVALID_DEVICE;
  *bytes = rt_dev_at(d)->prop.totalGlobalMem;
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void) {
  RT_API();
  if (!inited) return CUDA_ERROR_NOT_INITIALIZED;
  return cudaDeviceSynchronize() ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS;
}
