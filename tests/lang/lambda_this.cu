// Lambdas in __device__ member functions that use the object: [this], [&]
// and [=] (a held-out hunt: "'this' here"); one changes a member through
// it, one is called in a loop. Checked against the host.
#include <cstdio>

struct Acc {
  int base, sum;
  __host__ __device__ int plus(int j) const {
    auto f = [this](int x) { return base + x; };
    return f(j);
  }
  __host__ __device__ int times(int j) const {
    auto f = [&](int x) { return base * x + j; };
    return f(3);
  }
  __host__ __device__ int copy(int j) const {
    auto f = [=](int x) { return base - x; };
    return f(j);
  }
  __host__ __device__ void add_all(int n) {
    auto add = [this](int x) { sum += x * base; };
    for (int i = 0; i < n; i++) add(i);
  }
};

__global__ void k(int *o) {
  int t = threadIdx.x;
  Acc a{t + 10, 0};
  a.add_all(t % 5);
  o[4 * t] = a.plus(5);
  o[4 * t + 1] = a.times(t);
  o[4 * t + 2] = a.copy(t);
  o[4 * t + 3] = a.sum;
}

int main() {
  int *o;
  cudaMallocManaged(&o, 4 * 64 * sizeof(int));
  k<<<1, 64>>>(o);
  int bad = cudaDeviceSynchronize() != cudaSuccess;
  for (int t = 0; t < 64; t++) {
    Acc a{t + 10, 0};
    a.add_all(t % 5);
    int r[4] = {a.plus(5), a.times(t), a.copy(t), a.sum};
    for (int j = 0; j < 4; j++)
      if (o[4 * t + j] != r[j] && bad++ < 10) printf("thread %d [%d]: %d, expected %d\n", t, j, o[4 * t + j], r[j]);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
