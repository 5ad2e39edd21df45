// An unsupported construct in a region printed in four versions: reported
// once.
__global__ void k(int *a, int n) {
  int t = threadIdx.x;
  int v = t < n ? __shfl_down_sync(0xffffffffu, a[t], 1) : 0;
  a[t] = v;
}
int main() { return 0; }
