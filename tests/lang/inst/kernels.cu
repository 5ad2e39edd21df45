// kernels.cu: kernels launched only from host templates that this file
// instantiates explicitly (the way cuda-samples' reduction splits its
// kernels from main): the instantiations are what compile the kernels.
#include <cuda_runtime.h>
#include "scale.h"

namespace lib {
template <class T, int F> __global__ void scale_k(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * F + (T)i;
}

template <class T> __global__ void negate_k(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = -p[i];
}

template <class T> void scale(T *p, int n, int which) {
  switch (which) {
  case 2: scale_k<T, 2><<<(n + 127) / 128, 128>>>(p, n); break;
  case 3: scale_k<T, 3><<<(n + 127) / 128, 128>>>(p, n); break;
  default: negate_k<T><<<(n + 127) / 128, 128>>>(p, n); break;
  }
}

// explicit template arguments, deduced ones, and a qualified name
template void scale<int>(int *p, int n, int which);
template void scale(float *, int, int);
}  // namespace lib
template void lib::scale<double>(double *p, int n, int which);

// a kernel instantiated explicitly and launched through cudaLaunchKernel
template <class T> __global__ void fill_k(T *p, T v) { p[threadIdx.x] = v + (T)threadIdx.x; }
template __global__ void fill_k<long long>(long long *, long long);
const void *fill_ll = (const void *)fill_k<long long>;

namespace lib {
template <class T> __global__ void add_k(T *p, T v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += v;
}
template <class T> void Runner<T>::operator()(T *p, int n) { add_k<T><<<(n + 63) / 64, 64>>>(p, add, n); }
template <class T> T Runner<T>::twice(T *p, int n) {
  add_k<T><<<(n + 63) / 64, 64>>>(p, add, n);
  add_k<T><<<(n + 63) / 64, 64>>>(p, add, n);
  cudaDeviceSynchronize();
  return p[0];
}
template class Runner<float>;
}  // namespace lib
template struct lib::Runner<int>;
