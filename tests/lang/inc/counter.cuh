// counter.cuh: a __device__ variable and the kernel that uses it, defined
// in a header of the program's own (header_symbol.cu includes it).
__device__ unsigned int counter = 0;
__constant__ int step[2];

__global__ void bump(unsigned *out) {
  atomicAdd(&counter, (unsigned)step[threadIdx.x % 2]);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = 1;
}
