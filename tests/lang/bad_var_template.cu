// bad_var_template.cu: a variable template of internal linkage in device
// code is refused at its declaration (lang_bad_var_template).
namespace {
template <class T> __device__ T tbl[4];
}
__global__ void k(float *o) { o[threadIdx.x] = tbl<float>[threadIdx.x] + tbl<int>[0]; }
int main() {
  float *o;
  cudaMalloc(&o, 16);
  k<<<1, 4>>>(o);
  return 0;
}
