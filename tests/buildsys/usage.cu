// usage.cu: kernels whose resources -Xptxas -v and --resource-usage print:
// static shared memory, a barrier, parameters (and a template's mangled name).
__device__ int bias;

__global__ void scale(float *a, int n) {
  __shared__ float s[256];
  int i = threadIdx.x;
  s[i] = a[i];
  __syncthreads();
  a[i] = s[255 - i] * n;
}

template <int N> __global__ void add(int *p) { p[threadIdx.x] = N + bias; }

void launch(float *a, int *p) {
  scale<<<1, 256>>>(a, 2);
  add<3><<<1, 32>>>(p);
}
