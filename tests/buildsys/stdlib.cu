// stdlib.cu: host code as people write it around kernels: the C++17
// standard library's heavier headers (<memory> and <future> once failed to
// parse: cucc's __noinline__ macro broke libstdc++'s own attribute).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <execution>
#include <functional>
#include <future>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <random>
#include <regex>
#include <shared_mutex>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

__device__ __noinline__ float twice(float x) { return 2 * x; }

__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = twice(a[i]) + 1;
}

// a buffer owned by a unique_ptr with a cudaFree deleter, as RAII code does
struct CudaFree {
  void operator()(float *p) const { cudaFree(p); }
};

static std::vector<float> run(int n, float base) {
  std::vector<float> h(n);
  std::iota(h.begin(), h.end(), base);
  float *raw = nullptr;
  cudaMalloc(&raw, n * sizeof(float));
  std::unique_ptr<float, CudaFree> d(raw);
  cudaMemcpy(d.get(), h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<(n + 127) / 128, 128>>>(d.get(), n);
  cudaMemcpy(h.data(), d.get(), n * sizeof(float), cudaMemcpyDeviceToHost);
  return h;
}

int main() {
  const int n = 1000;
  // two host threads launch at once, through std::async
  auto f1 = std::async(std::launch::async, run, n, 0.0f);
  auto f2 = std::async(std::launch::async, run, n, 1000.0f);
  std::vector<float> a = f1.get(), b = f2.get();
  auto shared = std::make_shared<std::map<std::string, double>>();
  (*shared)["sum"] = std::reduce(std::execution::seq, a.begin(), a.end(), 0.0) +
                     std::accumulate(b.begin(), b.end(), 0.0);
  double want = 0;
  for (int i = 0; i < 2 * n; i++) want += 2.0 * i + 1;
  std::optional<double> got = (*shared)["sum"];
  std::variant<int, std::string> tag = std::string("ok");
  std::ostringstream msg;
  msg << "sum " << (long long)*got << " want " << (long long)want << " " << std::get<std::string>(tag);
  std::cout << msg.str() << "\n";
  if (*got != want || !std::regex_match(msg.str(), std::regex("sum [0-9]+ want [0-9]+ ok"))) {
    std::cout << "FAIL\n";
    return 1;
  }
  std::cout << "PASS\n";
  return 0;
}
