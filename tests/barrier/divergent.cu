// divergent.cu: barriers that not all threads of a block reach are reported
// (kernel, block, thread, file:line, how many threads reach it) and the
// launch fails with cudaErrorLaunchFailure; nothing hangs.
// Usage: ./divergent if|loop|ifelse|break
#include <cstdio>
#include <cstring>

__global__ void faulty_kernel(int *p) {
  if (threadIdx.x % 2 == 0) {
    p[threadIdx.x] = 1;
    __syncthreads();
  }
}

__global__ void loop_kernel(int *p) {
  for (int i = 0; i < (int)threadIdx.x % 3; i++) {
    __syncthreads();
    p[threadIdx.x] += i;
  }
}

__global__ void ifelse_kernel(int *p) {
  if (threadIdx.x < 16) {
    __syncthreads();
    p[threadIdx.x] = 1;
  } else {
    p[threadIdx.x] = 2;
    __syncthreads();
  }
}

__global__ void break_kernel(int *p) {   // a break only some threads take
  for (int i = 0; i < 4; i++) {
    __syncthreads();
    if (p[threadIdx.x] == 5) break;
    p[threadIdx.x] = i + 5 * (threadIdx.x == 3);
  }
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "if";
  int *p;
  cudaMalloc(&p, 64 * sizeof(int));
  cudaMemset(p, 0, 64 * sizeof(int));
  if (!strcmp(which, "if")) faulty_kernel<<<1, 32>>>(p);
  else if (!strcmp(which, "loop")) loop_kernel<<<1, 32>>>(p);
  else if (!strcmp(which, "break")) break_kernel<<<1, 32>>>(p);
  else ifelse_kernel<<<1, 32>>>(p);
  cudaError_t e = cudaDeviceSynchronize();
  printf("synchronize: %s\n", cudaGetErrorName(e));
  bool ok = e == cudaErrorLaunchFailure;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
