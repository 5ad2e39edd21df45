// var_template.cu: variable templates in device code (issue 22), as
// cuda-samples-style code spells them: a __constant__ array template the
// host fills with cudaMemcpyToSymbol, a __device__ one with an initializer
// that only device code names, a constexpr one, and one in a namespace with
// a non-type parameter that the host reads back; and every way of naming a
// kernel from host code: overloads launched by their arguments, a
// static_cast picking one overload of a kernel template, and
// cudaLaunchKernel on a cast of an overloaded kernel.
#include <cstdio>
template <class T> __constant__ T mask[4];
template <class T> __device__ T scale = T(3);
template <class T> constexpr T offs = T(1);
namespace q {
template <int N> __device__ int tab[N];
}

template <class T> __global__ void apply(T *p) {
  int i = threadIdx.x;
  p[i] = p[i] * mask<T>[i % 4] * scale<T> + offs<T>;
}
__global__ void fill_tab() { q::tab<4>[threadIdx.x] = 10 * threadIdx.x + 7; }

__global__ void over(int *p) { p[threadIdx.x] += 1; }
__global__ void over(float *p) { p[threadIdx.x] += 0.5f; }
__global__ void over(int *p, int v) { p[threadIdx.x] += v; }
template <class T> __global__ void tk(T *p, T v) { p[threadIdx.x] += v; }
template <class T> __global__ void tk(T *p) { p[threadIdx.x] += T(100); }

int main() {
  int *pi;
  float *pf;
  cudaMallocManaged(&pi, 8 * sizeof(int));
  cudaMallocManaged(&pf, 8 * sizeof(float));
  for (int i = 0; i < 8; i++) {
    pi[i] = i;
    pf[i] = i;
  }
  int mi[4] = {1, 2, 3, 4};
  float mf[4] = {0.5f, 1, 1.5f, 2};
  cudaError_t e1 = cudaMemcpyToSymbol(mask<int>, mi, sizeof mi);
  cudaError_t e2 = cudaMemcpyToSymbol(mask<float>, mf, sizeof mf);
  apply<<<1, 8>>>(pi);
  apply<float><<<1, 8>>>(pf);
  fill_tab<<<1, 4>>>();
  over<<<1, 8>>>(pi);
  over<<<1, 8>>>(pf);
  over<<<1, 8>>>(pi, 10);
  void (*f1)(int *, int) = static_cast<void (*)(int *, int)>(tk<int>);
  void (*f2)(float *) = static_cast<void (*)(float *)>(&tk<float>);
  f1<<<1, 8>>>(pi, 5);
  f2<<<1, 8>>>(pf);
  void *args[] = {&pi};
  cudaError_t e3 = cudaLaunchKernel((const void *)static_cast<void (*)(int *)>(over), 1, 8, args, 0, 0);
  int tab[4];
  cudaError_t e4 = cudaMemcpyFromSymbol(tab, q::tab<4>, sizeof tab);
  cudaDeviceSynchronize();
  int ok = e1 == cudaSuccess && e2 == cudaSuccess && e3 == cudaSuccess && e4 == cudaSuccess;
  for (int i = 0; i < 8; i++) {
    int ei = i * mi[i % 4] * 3 + 1 + 1 + 10 + 5 + 1;
    float ef = i * mf[i % 4] * 3 + 1 + 0.5f + 100;
    if (pi[i] != ei || pf[i] != ef) {
      printf("%d: %d (want %d) %g (want %g)\n", i, pi[i], ei, pf[i], ef);
      ok = 0;
    }
  }
  for (int i = 0; i < 4; i++) ok &= tab[i] == 10 * i + 7;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
