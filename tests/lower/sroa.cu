// sroa.cu: objects that hold a thread's indices, as CUB's do (a warp
// reducer built by a constructor, read through `this` by member functions;
// a reference to a temp storage), split into one local per field
// (frontend/sroa.c): the constructor and member functions are inlined and
// `lane_id = threadIdx.x & 31` is affine, `warp_id` the same in every lane,
// the storage a uniform pointer. A shuffle through a reinterpret_cast of a
// parameter's address (CUB's ShuffleDown) reads the parameter. CUB's own
// BlockReduce, the same. Lowering test: --dump-lir only (launched with 1-D
// blocks: blockshape.c).
#include <cub/block/block_reduce.cuh>

struct Store { int part[8]; };

class WarpSum {
  Store &st;
  int lane_id, warp_id;
  unsigned mask;

 public:
  __device__ WarpSum(Store &s) : st(s), lane_id(threadIdx.x & 31), warp_id(threadIdx.x >> 5), mask(0xffffffffu) {}
  __device__ int step(int v, int off) {
    int o = __shfl_down_sync(mask, v, off);
    if (lane_id + off < 32) v += o;
    return v;
  }
  __device__ void sum(int v) {
    for (int off = 1; off < 32; off <<= 1) v = step(v, off);
    if (lane_id == 0) st.part[warp_id] = v;
  }
};

__device__ int shfl_word(int input, int off) {
  unsigned *alias = reinterpret_cast<unsigned *>(&input);
  unsigned w = __shfl_down_sync(0xffffffffu, alias[0], off);
  int out;
  unsigned *oalias = reinterpret_cast<unsigned *>(&out);
  oalias[0] = w;
  return out;
}

__global__ void warps(const int *in, int *out) {
  __shared__ Store st;
  WarpSum(st).sum(in[blockIdx.x * 256 + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x < 8) out[blockIdx.x * 8 + threadIdx.x] = shfl_word(st.part[threadIdx.x], 1);
}

__global__ void cub_k(const int *in, int *part) {
  typedef cub::BlockReduce<int, 256> BR;
  __shared__ typename BR::TempStorage temp;
  int s = BR(temp).Sum(in[blockIdx.x * 256 + threadIdx.x]);
  if (threadIdx.x == 0) part[blockIdx.x] = s;
}

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 99) {   // (never: the launches say the blocks are 1-D)
    warps<<<1, 256>>>(nullptr, nullptr);
    cub_k<<<1, 256>>>(nullptr, nullptr);
  }
  return 0;
}
