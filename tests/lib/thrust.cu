// Thrust as CUDA programs use it (issue 23), on cucc's CPU device system:
// Debian's Thrust 1.17, unmodified. Every algorithm's answer is checked
// against a CPU reference; kernels and Thrust share memory both ways;
// thrust::cuda::par.on(stream) is ordered after the stream's earlier work.
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/fill.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/vector.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numeric>
#include <vector>

static int fails;
#define CHECK(c, ...)                                  \
  do {                                                 \
    if (!(c)) {                                        \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);      \
      printf(__VA_ARGS__);                             \
      printf("\n");                                    \
      fails++;                                         \
    }                                                  \
  } while (0)

struct saxpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};
struct is_odd {
  __host__ __device__ bool operator()(int x) const { return x & 1; }
};
// a __device__-only functor and the __device__ function it calls: Thrust's
// device system runs it on the host
__device__ int cube(int x) { return x * x * x; }
struct dev_cube {
  __device__ int operator()(int x) const { return cube(x) % 1000; }
};
struct mod_key {
  int m;
  __host__ __device__ int operator()(int x) const { return x % m; }
};

__global__ void scale(int *p, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= k;
}
// slow on purpose (a loop per element): ordering bugs show as zeros
__global__ void fill_slow(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = 0;
  for (int k = 0; k < 3000; k++) v += (i + k) % 3;
  p[i] = v;
}
__global__ void sum_pairs(const int *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

int main() {
  const int n = 100003;
  srand(7);
  std::vector<int> h(n);
  for (int &x : h) x = rand() % 100000 - 50000;

  // sort, reduce, min/max, count against std::
  {
    thrust::device_vector<int> d(h.begin(), h.end());
    thrust::sort(d.begin(), d.end());
    std::vector<int> r = h;
    std::sort(r.begin(), r.end());
    thrust::host_vector<int> back = d;
    CHECK(std::equal(r.begin(), r.end(), back.begin()), "sort");
    long long s = thrust::reduce(d.begin(), d.end(), 0LL);
    CHECK(s == std::accumulate(h.begin(), h.end(), 0LL), "reduce %lld", s);
    int mx = thrust::reduce(thrust::device, d.begin(), d.end(), -1000000, thrust::maximum<int>());
    CHECK(mx == r.back(), "reduce max %d", mx);
    thrust::sort(d.begin(), d.end(), thrust::greater<int>());
    CHECK(d[0] == r.back() && d[n - 1] == r[0], "sort greater");
    int odd = (int)thrust::count_if(d.begin(), d.end(), is_odd());
    CHECK(odd == (int)std::count_if(h.begin(), h.end(), [](int x) { return x & 1; }), "count_if");
  }

  // transform: functor, placeholders, __device__ and __host__ __device__ lambdas
  {
    thrust::device_vector<float> x(n), y(n, 1.0f), z(n);
    thrust::sequence(x.begin(), x.end(), 0.0f, 0.5f);
    thrust::transform(x.begin(), x.end(), y.begin(), z.begin(), saxpy{2.0f});
    bool ok = true;
    for (int i = 0; i < n; i += 997) ok &= z[i] == 2.0f * (0.5f * i) + 1.0f;
    CHECK(ok, "transform saxpy");
    using namespace thrust::placeholders;
    thrust::transform(x.begin(), x.end(), y.begin(), z.begin(), 3.0f * _1 + _2);
    CHECK(z[10] == 16.0f, "placeholders %g", (float)z[10]);
    thrust::transform(thrust::device, x.begin(), x.end(), z.begin(), [] __device__(float v) { return v * v; });
    CHECK(z[6] == 9.0f, "__device__ lambda %g", (float)z[6]);
    auto twice = [] __host__ __device__(int v) { return 2 * v; };
    int tr = thrust::transform_reduce(thrust::make_counting_iterator(0), thrust::make_counting_iterator(1000), twice, 0,
                                      thrust::plus<int>());
    CHECK(tr == 999000, "transform_reduce %d", tr);
    thrust::device_vector<int> c(1000), cc(1000);
    thrust::sequence(c.begin(), c.end());
    thrust::transform(c.begin(), c.end(), cc.begin(), dev_cube());
    CHECK(cc[17] == 17 * 17 * 17 % 1000, "__device__ functor %d", (int)cc[17]);
  }

  // scans, copy_if, sort_by_key, reduce_by_key (a histogram), unique
  {
    thrust::device_vector<int> v(thrust::make_counting_iterator(0), thrust::make_counting_iterator(n)), o(n);
    thrust::inclusive_scan(v.begin(), v.end(), o.begin());
    CHECK(o[n - 1] == (int)((long long)(n - 1) * n / 2), "inclusive_scan");
    thrust::exclusive_scan(v.begin(), v.end(), o.begin(), 10);
    CHECK(o[0] == 10 && o[100] == 10 + 4950, "exclusive_scan %d", (int)o[100]);
    auto e = thrust::copy_if(v.begin(), v.end(), o.begin(), is_odd());
    CHECK(e - o.begin() == n / 2 && o[0] == 1 && o[1] == 3, "copy_if %d", (int)(e - o.begin()));

    thrust::device_vector<int> keys(h.begin(), h.end());
    thrust::device_vector<int> vals(thrust::make_counting_iterator(0), thrust::make_counting_iterator(n));
    thrust::sort_by_key(keys.begin(), keys.end(), vals.begin());
    bool ok = true;
    for (int i = 0; i < n; i += 101) ok &= h[vals[i]] == keys[i];
    for (int i = 1; i < n; i += 7) ok &= keys[i - 1] <= keys[i];
    CHECK(ok, "sort_by_key");

    // histogram of x % 17 by sort + reduce_by_key
    thrust::device_vector<int> bins(n);
    thrust::transform(keys.begin(), keys.end(), bins.begin(), mod_key{17});
    thrust::sort(bins.begin(), bins.end());
    thrust::device_vector<int> bk(40), bc(40);
    auto end = thrust::reduce_by_key(bins.begin(), bins.end(), thrust::make_constant_iterator(1), bk.begin(), bc.begin());
    std::map<int, int> ref;
    for (int x : h) ref[x % 17]++;
    int nb = (int)(end.first - bk.begin());
    ok = nb == (int)ref.size();
    for (int i = 0; i < nb && ok; i++) ok = ref[bk[i]] == bc[i];
    CHECK(ok, "reduce_by_key histogram (%d bins)", nb);
    auto ue = thrust::unique(bins.begin(), bins.end());
    CHECK(ue - bins.begin() == nb, "unique");
  }

  // iterators: transform_iterator, zip_iterator
  {
    thrust::device_vector<int> a(1000);
    thrust::device_vector<float> b(1000);
    thrust::sequence(a.begin(), a.end());
    thrust::sequence(b.begin(), b.end(), 0.0f, 0.25f);
    auto sq = thrust::make_transform_iterator(a.begin(), mod_key{10});
    int s = thrust::reduce(sq, sq + 1000);
    CHECK(s == 4500, "transform_iterator %d", s);
    auto z = thrust::make_zip_iterator(thrust::make_tuple(a.begin(), b.begin()));
    thrust::tuple<int, float> t = z[8];
    CHECK(thrust::get<0>(t) == 8 && thrust::get<1>(t) == 2.0f, "zip_iterator");
  }

  // kernels on Thrust's memory, and Thrust on cudaMalloc's
  {
    thrust::device_vector<int> d(n);
    thrust::sequence(d.begin(), d.end());
    scale<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(d.data()), n, 3);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "kernel on device_vector");
    CHECK(d[n - 1] == 3 * (n - 1), "kernel result %d", (int)d[n - 1]);
    std::vector<int> back(n);
    CHECK(cudaMemcpy(back.data(), thrust::raw_pointer_cast(d.data()), n * sizeof(int), cudaMemcpyDeviceToHost) ==
              cudaSuccess && back[5] == 15,
          "cudaMemcpy from a device_vector");

    int *raw;
    float *fb, *out;
    cudaMalloc(&raw, n * sizeof(int));
    cudaMalloc(&fb, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    thrust::device_ptr<int> dp = thrust::device_pointer_cast(raw);
    thrust::device_ptr<float> fp(fb);
    thrust::sequence(dp, dp + n);
    thrust::fill(thrust::device, fp, fp + n, 0.5f);
    sum_pairs<<<(n + 127) / 128, 128>>>(raw, fb, out, n);
    float s = thrust::reduce(thrust::device_pointer_cast(out), thrust::device_pointer_cast(out) + 1000);
    CHECK(s == 499500.0f + 500.0f, "device_ptr over cudaMalloc %g", s);
    CHECK(thrust::raw_pointer_cast(dp) == raw, "raw_pointer_cast");
    cudaFree(raw);
    cudaFree(fb);
    cudaFree(out);
  }

  // streams: Thrust runs after the stream's earlier work, the default
  // stream's after every blocking stream's
  {
    cudaStream_t s;
    cudaStreamCreate(&s);
    int m = 1 << 16;
    thrust::device_vector<int> d(m, 0);
    int *p = thrust::raw_pointer_cast(d.data());
    long long want = 0, per[3] = {0, 0, 0};
    for (int r = 0; r < 3; r++)
      for (int k = 0; k < 3000; k++) per[r] += (r + k) % 3;
    for (int i = 0; i < m; i++) want += per[i % 3];
    fill_slow<<<m / 256, 256, 0, s>>>(p, m);
    long long got = thrust::reduce(thrust::cuda::par.on(s), d.begin(), d.end(), 0LL);
    CHECK(got == want, "cuda::par.on(stream) after a kernel on it: %lld, want %lld", got, want);
    thrust::fill(thrust::cuda::par.on(s), d.begin(), d.end(), 0);
    fill_slow<<<m / 256, 256, 0, s>>>(p, m);
    got = thrust::reduce(thrust::device, d.begin(), d.end(), 0LL);
    CHECK(got == want, "thrust::device after a kernel on a blocking stream: %lld", got);
    thrust::fill(thrust::cuda::par_nosync.on(s), d.begin(), d.end(), 1);
    scale<<<m / 256, 256, 0, s>>>(p, m, 5);
    cudaStreamSynchronize(s);
    CHECK(d[m - 1] == 5, "a kernel after par_nosync.on(stream): %d", (int)d[m - 1]);
    thrust::sort(thrust::cuda::par, d.begin(), d.end());
    cudaStreamDestroy(s);
  }

  // thrust::cuda's own vector and memory
  {
    thrust::cuda::vector<int> cv(1000, 3);
    int s = thrust::reduce(thrust::cuda::par, cv.begin(), cv.end());
    thrust::cuda::pointer<int> p = thrust::cuda::malloc<int>(10);
    thrust::fill(thrust::cuda::par, p, p + 10, 4);
    scale<<<1, 32>>>(p.get(), 10, 2);
    cudaDeviceSynchronize();
    CHECK(s == 3000 && p[9] == 8, "thrust::cuda::vector, malloc: %d %d", s, (int)p[9]);
    thrust::cuda::free(p);
  }

  // errors are Thrust's system_error with CUDA's category
  {
    thrust::system_error e(cudaErrorInvalidValue, thrust::cuda_category(), "here");
    CHECK(std::string(e.what()).find("here") != std::string::npos, "system_error what(): %s", e.what());
  }

#if THRUST_DEVICE_SYSTEM != THRUST_DEVICE_SYSTEM_OMP
  CHECK(false, "device system %d, not OpenMP's", THRUST_DEVICE_SYSTEM);
#endif
  CHECK(cudaGetLastError() == cudaSuccess, "a CUDA error");
  if (fails) return 1;
  printf("PASS\n");
  return 0;
}
