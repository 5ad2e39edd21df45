// Consecutive lane statements share one lane loop; warp-synchronous ones
// (volatile) each finish in every lane before the next.
__global__ void k(float *a, volatile float *v) {
  int i = threadIdx.x;
  float x = a[i] * 2;
  float y = x + 1;
  a[i] = y;
  v[i] += v[i + 16];
  v[i] += v[i + 8];
}
int main() { return 0; }
