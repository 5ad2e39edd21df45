// kernel_tmpl_args.cu: template kernels whose arguments the host unit must
// spell with their types to name the instance it registers: enumerators
// (plain, scoped, in a namespace), `auto` parameters (long long, unsigned,
// char, bool, an enumerator), template template parameters and parameter
// packs (of types, of values, empty), launched with <<<>>> and through
// cudaLaunchKernel; against a CPU reference.
#include <cstdio>
#include <cuda_runtime.h>

enum Color { RED = 3, GREEN = 5 };
namespace ns { enum class Mode : short { Add = 1, Mul = 2 }; }

template <Color C> __global__ void color(int *o) { o[0] = C == GREEN ? 10 : 20; }
template <ns::Mode M, int K> __global__ void mode(int *o) { o[1] = M == ns::Mode::Add ? o[1] + K : o[1] * K; }

template <auto V> __global__ void autov(long long *o, int slot) { o[slot] = (long long)V * (threadIdx.x + 1); }

template <typename T> struct Square { __device__ T operator()(T v) const { return v * v; } };
template <typename T> struct Twice { __device__ T operator()(T v) const { return v + v; } };
template <typename T, template <typename> class F> __global__ void apply(T *d, int n) {
  int i = threadIdx.x;
  if (i < n) d[i] = F<T>()(d[i]);
}

template <typename... Args> __global__ void sum(long long *o, Args... args) { *o = (0LL + ... + (long long)args); }
template <int... Ns> __global__ void count(int *o) { o[0] = sizeof...(Ns) * 100 + (0 + ... + Ns); }

int main() {
  int fails = 0;
  int *oi;
  long long *ol;
  float *df;
  cudaMallocManaged(&oi, 4 * sizeof(int));
  cudaMallocManaged(&ol, 16 * sizeof(long long));
  cudaMallocManaged(&df, 8 * sizeof(float));
  oi[1] = 7;
  color<GREEN><<<1, 1>>>(oi);
  mode<ns::Mode::Mul, 3><<<1, 1>>>(oi);
  mode<ns::Mode::Add, 4><<<1, 1>>>(oi);
  cudaDeviceSynchronize();
  if (oi[0] != 10 || oi[1] != 25) { printf("enum: %d %d, expected 10 25\n", oi[0], oi[1]); fails++; }
  void *args[] = {&oi};
  cudaLaunchKernel((const void *)&color<RED>, dim3(1), dim3(1), args, 0, 0);   // by address
  cudaDeviceSynchronize();
  if (oi[0] != 20) { printf("enum by address: %d, expected 20\n", oi[0]); fails++; }

  // `auto`: each argument's type makes an instance of its own
  autov<7LL><<<1, 2>>>(ol, 0);
  autov<7><<<1, 2>>>(ol, 1);
  autov<3000000000u><<<1, 1>>>(ol, 2);
  autov<'A'><<<1, 1>>>(ol, 3);
  autov<true><<<1, 1>>>(ol, 4);
  autov<GREEN><<<1, 1>>>(ol, 5);
  cudaError_t e = cudaDeviceSynchronize();
  const long long want[6] = {14, 14, 3000000000LL, 65, 1, 5};   // (slots 0 and 1 by thread 1)
  if (e != cudaSuccess) { printf("auto: %s\n", cudaGetErrorString(e)); fails++; }
  for (int i = 0; i < 6; i++)
    if (ol[i] != want[i]) { printf("auto[%d]: %lld, expected %lld\n", i, ol[i], want[i]); fails++; }

  for (int i = 0; i < 8; i++) df[i] = (float)i;
  apply<float, Square><<<1, 8>>>(df, 8);
  apply<float, Twice><<<1, 8>>>(df, 8);
  cudaDeviceSynchronize();
  for (int i = 0; i < 8; i++)
    if (df[i] != 2.0f * i * i) { printf("template template: df[%d] %g, expected %g\n", i, df[i], 2.0f * i * i); fails++; break; }

  sum<<<1, 1>>>(ol + 8, 1, 2LL, 3u);
  sum<<<1, 1>>>(ol + 9, (short)-4, 'a', 10000000000LL);
  sum<<<1, 1>>>(ol + 10);
  count<1, 2, 3><<<1, 1>>>(oi + 2);
  count<><<<1, 1>>>(oi + 3);
  e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("packs: %s\n", cudaGetErrorString(e)); fails++; }
  if (ol[8] != 6 || ol[9] != 10000000093LL || ol[10] != 0) { printf("sum: %lld %lld %lld\n", ol[8], ol[9], ol[10]); fails++; }
  if (oi[2] != 306 || oi[3] != 0) { printf("count: %d %d, expected 306 0\n", oi[2], oi[3]); fails++; }
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails != 0;
}
