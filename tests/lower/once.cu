// An unsupported construct in a region printed in four versions: reported
// once. (A collective in an arm of ?: runs under the arm's mask, which
// evaluates the condition again: it must have no side effects.)
__global__ void k(int *a, int n) {
  int t = threadIdx.x;
  int v = a[t]++ < n ? __shfl_down_sync(0xffffffffu, a[t], 1) : 0;
  a[t] = v;
}
int main() { return 0; }
