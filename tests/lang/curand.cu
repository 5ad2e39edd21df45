// curand.cu: cuRAND's device API (curand_kernel.h). XORWOW: curand_init's
// seeding and offset skipahead against a CPU generator stepped one number
// at a time, subsequence skipahead against its own composition; Philox4x32-10
// against Random123's known-answer vectors; the distributions' moments.
#include <cmath>
#include <cstdio>
#include <curand_kernel.h>

__global__ void xorwow(unsigned *o, unsigned long long seed) {
  int t = threadIdx.x;
  curandState s;
  curand_init(seed, 0, (unsigned long long)t * 1000 + 7, &s);   // offsets
  o[t * 4] = curand(&s);
  o[t * 4 + 1] = curand(&s);
  curandState a, b;
  curand_init(seed, t + 3, 5, &a);            // subsequence t + 3 ...
  curand_init(seed, 1, 0, &b);                // ... is 1, then t + 2 more, then 5 numbers
  skipahead_sequence(t + 2, &b);
  skipahead(5, &b);
  o[t * 4 + 2] = curand(&a);
  o[t * 4 + 3] = curand(&b);
}

__global__ void philox(unsigned *o) {
  curandStatePhilox4_32_10_t s;
  curand_init(0ull, 0ull, 0ull, &s);   // counter 0, key 0
  for (int i = 0; i < 4; i++) o[i] = curand(&s);
  // counter and key of the digits of pi (counter: offset in 4 steps, subsequence)
  curand_init(0x299f31d0a4093822ull, 0x0370734413198a2eull, 0ull, &s);
  for (int i = 0; i < 4; i++) skipahead(0x85a308d3243f6a88ull, &s);
  uint4 v = curand4(&s);
  o[4] = v.x, o[5] = v.y, o[6] = v.z, o[7] = v.w;
}

__global__ void moments(double *acc, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  curandState s;
  curandStatePhilox4_32_10_t p;
  curand_init(2024, t, 0, &s);
  curand_init(7, t, 0, &p);
  double su = 0, su2 = 0, sn = 0, sn2 = 0, sd = 0, pl = 0, pn = 0;
  for (int i = 0; i < n; i++) {
    float u = curand_uniform(&s);
    double g = curand_normal_double(&s);
    su += u, su2 += (double)u * u, sn += g, sn2 += g * g;
    sd += curand_uniform_double(&p);
    pn += curand_normal(&p);
    pl += curand_log_normal(&p, 0.0f, 0.25f);
    if (u <= 0.0f || u > 1.0f) su = -1e30;   // (0, 1]
  }
  atomicAdd(&acc[0], su), atomicAdd(&acc[1], su2), atomicAdd(&acc[2], sn), atomicAdd(&acc[3], sn2);
  atomicAdd(&acc[4], sd), atomicAdd(&acc[5], pn), atomicAdd(&acc[6], pl);
}

// XORWOW on the CPU, one step at a time, seeded as cuRAND documents it
struct Cpu {
  unsigned d, v[5];
  Cpu(unsigned long long seed) {
    unsigned s0 = (unsigned)seed ^ 0xaad26b49u, s1 = (unsigned)(seed >> 32) ^ 0xf7dcefddu;
    unsigned t0 = 1099087573u * s0, t1 = 2591861531u * s1;
    d = 6615241u + t1 + t0;
    v[0] = 123456789u + t0, v[1] = 362436069u ^ t0, v[2] = 521288629u + t1, v[3] = 88675123u ^ t1, v[4] = 5783321u + t0;
  }
  unsigned next() {
    unsigned t = v[0] ^ (v[0] >> 2);
    v[0] = v[1], v[1] = v[2], v[2] = v[3], v[3] = v[4];
    v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
    d += 362437;
    return v[4] + d;
  }
};

int main() {
  int bad = 0;
  unsigned *o;
  cudaMallocManaged(&o, 64 * 4 * sizeof(unsigned));
  unsigned long long seed = 0x1234567890abcdefull;
  xorwow<<<1, 64>>>(o, seed);
  cudaDeviceSynchronize();
  Cpu c(seed);
  unsigned long long at = 0;
  for (int t = 0; t < 64; t++) {
    while (at < (unsigned long long)t * 1000 + 7) c.next(), at++;
    Cpu k = c;
    unsigned a = k.next(), b = k.next();
    if (o[t * 4] != a || o[t * 4 + 1] != b) bad++;
    if (o[t * 4 + 2] != o[t * 4 + 3]) bad++;
  }
  if (bad) printf("xorwow: %d wrong\n", bad);
  philox<<<1, 1>>>(o);
  cudaDeviceSynchronize();
  // Random123's kat_vectors for philox4x32 with 10 rounds
  const unsigned kat[8] = {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8,
                           0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1};
  for (int i = 0; i < 8; i++)
    if (o[i] != kat[i]) {
      printf("philox [%d]: %08x, want %08x\n", i, o[i], kat[i]);
      bad++;
    }
  double *acc;
  cudaMallocManaged(&acc, 7 * sizeof(double));
  for (int i = 0; i < 7; i++) acc[i] = 0;
  const int T = 256, N = 400;
  moments<<<T / 64, 64>>>(acc, N);
  cudaDeviceSynchronize();
  double n = (double)T * N;
  double mu = acc[0] / n, var = acc[1] / n - mu * mu, gm = acc[2] / n, gv = acc[3] / n - gm * gm;
  double pd = acc[4] / n, pnm = acc[5] / n, plm = acc[6] / n;
  if (fabs(mu - 0.5) > 0.005 || fabs(var - 1.0 / 12) > 0.002 || fabs(gm) > 0.01 || fabs(gv - 1) > 0.02 ||
      fabs(pd - 0.5) > 0.005 || fabs(pnm) > 0.01 || fabs(plm - exp(0.25 * 0.25 / 2)) > 0.01) {
    printf("moments: uniform %g %g normal %g %g philox %g %g %g\n", mu, var, gm, gv, pd, pnm, plm);
    bad++;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
