// warp_perm.cu: __shfl_xor_sync, __shfl_down_sync and __shfl_up_sync by a
// uniform offset, the steps of shuffle reductions, scans and cg::reduce,
// which a whole warp computes as permutations of its values (cucc_dev.h's
// cu_xor_perm, cu_down_perm*, cu_up_perm*): every type of 4 and 8 bytes,
// every width, offsets 0..33 (xor past the width: a lane reads an earlier
// group, or keeps its own value reading a later one; down and up outside
// the lane's group: its own value), in the kernel, in a __device__ helper
// whose offset and width are parameters, in an unrolled butterfly, and in
// partial warps. Checked against CUDA's rule on the CPU; lanes whose source
// lane does not exist are not checked.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

template <int OP, class T> __device__ T shfl(T v, int d, int w) {
  return OP == 0 ? __shfl_xor_sync(0xffffffffu, v, d, w)
       : OP == 1 ? __shfl_down_sync(0xffffffffu, v, (unsigned)d, w) : __shfl_up_sync(0xffffffffu, v, (unsigned)d, w);
}

template <int OP, class T> __global__ void direct(T *out, int d, int w, int nd) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  T v = (T)(t * 3 + 1);
  for (int k = 0; k < nd; k++) {
    T r;
    if (OP == 0) r = __shfl_xor_sync(0xffffffffu, v, d + k, w);
    else if (OP == 1) r = __shfl_down_sync(0xffffffffu, v, d + k, w);
    else r = __shfl_up_sync(0xffffffffu, v, d + k, w);
    out[(size_t)k * gridDim.x * blockDim.x + t] = r;
  }
}

template <int OP, class T> __global__ void helper(T *out, int d, int w, int nd) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  T v = (T)(t * 3 + 1);
  for (int k = 0; k < nd; k++) out[(size_t)k * gridDim.x * blockDim.x + t] = shfl<OP>(v, d + k, w);
}

template <class T> __global__ void butterfly(T *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  T v = (T)(t % 7);
#pragma unroll
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  T u = (T)(t % 7);   // lane 0 of each warp: the sum by shuffles down
  for (int o = 16; o > 0; o /= 2) u += __shfl_down_sync(0xffffffffu, u, o);
  out[t] = threadIdx.x % 32 == 0 && u != v ? (T)-1 : v;
}

static int fails;

static const char *const opname[] = {"xor", "down", "up"};

template <int OP, class T> static void run(const char *ty) {
  const int nd = 34, grid = 2;
  int blocks[] = {64, 32, 48, 40};
  for (int bs : blocks)
    for (int w = 1; w <= 32; w *= 2)
      for (int which = 0; which < 2; which++) {
        int n = grid * bs;
        T *out;
        cudaMallocManaged(&out, sizeof(T) * n * nd);
        memset(out, 0, sizeof(T) * n * nd);
        if (which) helper<OP, T><<<grid, bs>>>(out, 0, w, nd);
        else direct<OP, T><<<grid, bs>>>(out, 0, w, nd);
        cudaDeviceSynchronize();
        for (int d = 0; d < nd; d++)
          for (int t = 0; t < n; t++) {
            int b = t / bs, tb = t % bs, lane = tb % 32, wbase = tb - lane;
            int src, in = lane & (w - 1);
            if (OP == 0) {   // a later group's lane (or no lane of the warp): its own value
              int s = lane ^ d;
              src = (s >= 32 || s > (lane | (w - 1))) ? lane : s;
            } else if (OP == 1) src = in + d < w ? lane + d : lane;
            else src = in >= d ? lane - d : lane;
            if (wbase + src >= bs) continue;   // no such thread: undefined
            T want = (T)((b * bs + wbase + src) * 3 + 1);
            if (out[(size_t)d * n + t] != want && fails++ < 10)
              printf("FAIL: %s %s %s block %d width %d offset %d thread %d: %g, want %g\n", opname[OP], ty,
                     which ? "helper" : "direct", bs, w, d, t, (double)out[(size_t)d * n + t], (double)want);
          }
        cudaFree(out);
      }
  for (int bs : blocks) {
    if (OP) break;
    T *out;
    cudaMallocManaged(&out, sizeof(T) * bs);
    butterfly<T><<<1, bs>>>(out);
    cudaDeviceSynchronize();
    for (int wb = 0; wb + 32 <= bs; wb += 32) {   // whole warps: every lane the warp's sum
      T sum = 0;
      for (int l = 0; l < 32; l++) sum += (T)((wb + l) % 7);
      for (int l = 0; l < 32; l++)
        if (out[wb + l] != sum && fails++ < 10) printf("FAIL: %s butterfly block %d lane %d: %g, want %g\n", ty, bs, wb + l,
                                                      (double)out[wb + l], (double)sum);
    }
    cudaFree(out);
  }
}

template <int OP> static void all() {
  run<OP, int>("int");
  run<OP, unsigned>("unsigned");
  run<OP, float>("float");
  run<OP, long long>("long long");
  run<OP, unsigned long long>("unsigned long long");
  run<OP, double>("double");
}

int main() {
  all<0>();
  all<1>();
  all<2>();
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}
