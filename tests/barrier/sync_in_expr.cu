// __syncthreads_count/and/or inside conditions and expressions, as people
// write them (a held-out hunt: refused, "assign its result to a
// variable"): a while loop's test, a for loop's test with a continue (the
// barrier again, then), an if's comparison, a declaration's initializer,
// a ?: operand, a switch, a do-while's test (the neighbour-max sweep
// until no thread changes).
// Two warps per block. Checked against the host.
#include <cstdio>

__global__ void k(int *out) {
  int t = threadIdx.x, n = 0, more = 1;
  while (__syncthreads_or(more)) {   // until every thread is done
    n++;
    more = t + n < 70;
  }
  int m = 0;
  for (int i = 0; __syncthreads_and(i < 3 + (t >= 1000)); i++) {
    if (i == 1) continue;
    m += i * (t % 2 + 1);
  }
  int c = 0;
  if (__syncthreads_count(t < 10) == 10) c = 1;
  int r = 2 * __syncthreads_count(t % 3 == 0) + 1;
  int q = __syncthreads_and(t < 64) ? 5 : 6;
  int s;
  switch (__syncthreads_or(t == 40)) {
  case 1: s = 11; break;
  default: s = 12; break;
  }
  __shared__ int sw[64];
  sw[t] = t;
  __syncthreads();
  int d = 0, changed;
  do {   // each turn takes the right neighbour's larger value
    changed = 0;
    int x = sw[t], y = t + 1 < 64 ? sw[t + 1] : x;
    __syncthreads();
    if (y > x) { sw[t] = y; changed = 1; }
    d++;
  } while (__syncthreads_or(changed));
  out[6 * 64 + t] = d * 1000 + sw[t];
  out[t * 6] = n;
  out[t * 6 + 1] = m;
  out[t * 6 + 2] = c;
  out[t * 6 + 3] = r;
  out[t * 6 + 4] = q;
  out[t * 6 + 5] = s;
}

int main() {
  const int T = 64;
  int *out;
  cudaMallocManaged(&out, 7 * T * sizeof(int));
  k<<<1, T>>>(out);
  int bad = cudaDeviceSynchronize() != cudaSuccess;
  int third = 0;
  for (int t = 0; t < T; t++) third += t % 3 == 0;
  for (int t = 0; t < T; t++) {
    // while: the loop runs until the last thread (t = 0) is done: 70 turns
    int r[6] = {70, (0 + 2) * (t % 2 + 1), 1, 2 * third + 1, 5, 11};
    for (int j = 0; j < 6; j++)
      if (out[t * 6 + j] != r[j] && bad++ < 10) printf("thread %d [%d]: %d, expected %d\n", t, j, out[t * 6 + j], r[j]);
    // do-while: 63 turns move 63 to thread 0, one more finds no change
    if (out[6 * T + t] != 64 * 1000 + 63 && bad++ < 10) printf("thread %d do-while: %d, expected %d\n", t, out[6 * T + t], 64063);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
