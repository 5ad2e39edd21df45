// cucc --check keeps a fast version only where no access is checked lane
// by lane: a gather is, so the block-wide version is dropped.
__global__ void k(float *a, const int *idx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = a[idx[i]];
}
int main() { return 0; }
