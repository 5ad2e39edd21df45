// bench/thrust/thrust.cu: thrust::sort and thrust::reduce as a CUDA program
// writes them, built by cucc with its default flags (bench/thrust/run).
//   thrust <sort|reduce> <n> <reps>
// Each repetition times the algorithm alone (sort: on a fresh copy of the
// same random keys) and prints TIME <ms>; the result is checked (sorted
// order and a checksum; the exact sum), then PASS.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s sort|reduce n reps\n", argv[0]);
    return 2;
  }
  bool sort = !strcmp(argv[1], "sort");
  long n = atol(argv[2]);
  int reps = atoi(argv[3]);
  thrust::host_vector<int> h(n);
  unsigned x = 12345;
  long long want = 0, xsum = 0;
  for (long i = 0; i < n; i++) {
    x = x * 1664525u + 1013904223u;
    h[i] = (int)(x >> 1);
    want += h[i];
    xsum ^= h[i];
  }
  thrust::device_vector<int> keys = h, d(n);
  for (int r = 0; r < reps; r++) {
    if (sort) {
      d = keys;
      cudaDeviceSynchronize();
      double t0 = now_ms();
      thrust::sort(d.begin(), d.end());
      cudaDeviceSynchronize();
      printf("TIME %.3f\n", now_ms() - t0);
      thrust::host_vector<int> s = d;
      long long ss = 0;
      for (long i = 0; i < n; i++) {
        if (i && s[i - 1] > s[i]) { printf("FAIL not sorted at %ld\n", i); return 1; }
        ss ^= s[i];
      }
      if (ss != xsum) { printf("FAIL sorted keys are not the keys\n"); return 1; }
    } else {
      double t0 = now_ms();
      long long got = thrust::reduce(keys.begin(), keys.end(), 0LL);
      printf("TIME %.3f\n", now_ms() - t0);
      if (got != want) { printf("FAIL sum %lld, want %lld\n", got, want); return 1; }
    }
  }
  printf("PASS\n");
  return 0;
}
