// bad_wrapped.cu: cucc's own error on a line holding a device-side launch
// it wrapped for clang (frontend/cdp.c) is at the user's column.
__global__ void k(int *v, int a) { v[threadIdx.x] = a; }
__global__ void k(float *v, float a) { v[threadIdx.x] = a; }
__global__ void p(int *v) {
  k<<<1, 4>>>(v, 7); cudaDeviceSynchronize();
}
int main() {
  p<<<1, 1>>>(0);
  return 0;
}
