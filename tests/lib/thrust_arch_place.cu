// A functor whose __CUDA_ARCH__ side reads the thread's place in the grid
// (threadIdx, blockIdx, blockDim, gridDim), given to a Thrust algorithm on
// device data, is refused at the call: Thrust runs it on the CPU here, as
// host code, and no CPU thread has a place in the grid Thrust's CUDA system
// would launch (cuda-samples' cdpQuadtree seeds its random points by it).
// Each spelling below is refused; the same functor on host data is not (a
// GPU runs its host side there too), nor one whose device side reads no
// place (a warning only: thrust_arch.cu).
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/generate.h>
#include <thrust/host_vector.h>
#include <thrust/random.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>
#include <cstdio>

namespace pts {
// cdpQuadtree's spelling: a member function hashes the grid index
struct Random_generator {
  int count;
  __host__ __device__ Random_generator() : count(0) {}
  __host__ __device__ unsigned int hash(unsigned int a) {
    a = (a + 0x7ed55d16) + (a << 12);
    return a ^ (a >> 19);
  }
  __host__ __device__ thrust::tuple<float, float> operator()() {
#ifdef __CUDA_ARCH__
    unsigned seed = hash(blockIdx.x * blockDim.x + threadIdx.x + count);
    count += blockDim.x * gridDim.x;
#else
    unsigned seed = hash(0);
#endif
    thrust::default_random_engine rng(seed);
    thrust::random::uniform_real_distribution<float> distrib;
    return thrust::make_tuple(distrib(rng), distrib(rng));
  }
};
}

struct Lane {
  __host__ __device__ int operator()(int x) const {
#if defined(__CUDA_ARCH__)
    return x + (int)(threadIdx.x % 32u);
#else
    return x;
#endif
  }
};

int main() {
  thrust::device_vector<thrust::tuple<float, float>> pts(16);
  thrust::generate(pts.begin(), pts.end(), pts::Random_generator());
  thrust::host_vector<thrust::tuple<float, float>> hp(16);
  thrust::generate(hp.begin(), hp.end(), pts::Random_generator());
  thrust::device_vector<int> d(8, 1);
  int *p = thrust::raw_pointer_cast(d.data());
  thrust::transform(thrust::device, p, p + 8, p, Lane());
  thrust::transform(d.begin(), d.end(), d.begin(), [] __device__(int x) {
#ifdef __CUDA_ARCH__
    return x * (int)gridDim.x;
#else
    return x;
#endif
  });
  printf("%d\n", (int)d[0]);
  return 0;
}
