// A functor or lambda that a Thrust algorithm runs on device data runs on
// the CPU under cucc (Thrust's device system is OpenMP's), as host code: a
// test of __CUDA_ARCH__ in it takes the host side. cucc warns at the call,
// once per functor; not where the data is the host's (a GPU runs the host
// side there too) nor for a functor with no such test. (A device side that
// reads the thread's place is refused: thrust_arch_place.cu.)
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/generate.h>
#include <thrust/host_vector.h>
#include <thrust/transform.h>
#include <cstdio>

struct Gen {
  int count = 0;
  __host__ __device__ int operator()() {
#ifdef __CUDA_ARCH__
    return 40 + count++;
#else
    return 7;
#endif
  }
};

struct Twice {
  __host__ __device__ int operator()(int x) const { return 2 * x; }
};

struct Scale {
  __host__ __device__ int operator()(int x) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 350
    return x * 3;
#else
    return x * 3;
#endif
  }
};

struct HostOnly {
  __host__ __device__ int operator()() const {
#ifdef __CUDA_ARCH__
    return 1;
#else
    return 2;
#endif
  }
};

int main() {
  thrust::device_vector<int> d(8);
  thrust::generate(d.begin(), d.end(), Gen());
  thrust::generate(d.begin(), d.end(), Gen());
  thrust::host_vector<int> h(8);
  thrust::generate(h.begin(), h.end(), HostOnly());
  thrust::transform(d.begin(), d.end(), d.begin(), Twice());
  int *p = thrust::raw_pointer_cast(d.data());
  thrust::transform(thrust::device, p, p + 8, p, Scale());
  thrust::transform(d.begin(), d.end(), d.begin(), [] __device__(int x) {
#ifdef __CUDA_ARCH__
    return x + 1;
#else
    return x - 1;
#endif
  });
  int x = d[3];
  printf("%d %d %s\n", x, h[0], x == 41 && h[0] == 2 ? "PASS" : "FAIL");
  return x == 41 && h[0] == 2 ? 0 : 1;
}
