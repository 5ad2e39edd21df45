// C++ lvalues and orders that C does not have (a held-out hunt: the
// generated C did not compile, or stored in the wrong place): a
// conditional as the left side and under &, an assignment and a
// pre-increment used as lvalues, a comma expression's right side, a
// reference bound to ++y; C++17's order of an assignment's operands (the
// right one first): `buf[k++] = k`, `a[i] = i++`, `*(p + m++) = m`.
// Checked against the host, which g++ compiles as C++17.
#include <cstdio>

__host__ __device__ void all(int t, int *o) {
  int a = 1, b = 2;
  ((t & 1) ? a : b) = 10;
  int *pc = &(t & 1 ? a : b);
  *pc += 1;
  o[0] = a * 100 + b;
  int x = 5, y = 6, z = 0;
  (x = y) += 5;
  ++(++z);
  (z++, y) = 9;
  int &q = ++y;
  q += 1;
  o[1] = x * 10000 + y * 100 + z;
  int buf[4] = {0, 0, 0, 0}, k = 1;
  buf[k++] = k;
  int arr[4] = {0, 0, 0, 0}, i = 1;
  arr[i] = i++;
  int mem[4] = {0, 0, 0, 0}, m = 0, *p = mem;
  *(p + m++) = m + t;
  o[2] = buf[1] * 1000 + buf[2] * 100 + arr[1] * 10 + arr[2];
  o[3] = mem[0] * 10 + mem[1] + k * 1000 + i * 100;
}

__global__ void k(int *o) { all(threadIdx.x, o + 4 * threadIdx.x); }

int main() {
  int *o;
  cudaMallocManaged(&o, 64 * sizeof(int));
  k<<<1, 16>>>(o);
  int bad = cudaDeviceSynchronize() != cudaSuccess;
  for (int t = 0; t < 16; t++) {
    int r[4];
    all(t, r);
    for (int j = 0; j < 4; j++)
      if (o[4 * t + j] != r[j] && bad++ < 10) printf("thread %d [%d]: %d, expected %d\n", t, j, o[4 * t + j], r[j]);
  }
  printf("%s %d %d %d %d\n", bad ? "FAIL" : "PASS", o[4], o[5], o[6], o[7]);
  return bad != 0;
}
