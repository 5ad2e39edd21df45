// lane_records.cu: structs of scalars held by each thread (float3, float4,
// a user's struct with int, float, double and pointer fields), which the
// lowering keeps as one lane array per field (soa.c): fields read and
// written in loops, in divergent branches (masked), ++ and += on a field,
// a whole struct assigned from a function's result, from another, from
// ?:, from a make_ helper, passed by value, returned, its address passed
// to a function inlined (frontend/sroa.c); and those it keeps whole: a
// struct whose address escapes (to a recursive function), one kept across
// a barrier, one with an array field, one a warp shuffles field by field. Each answer
// against the CPU's; under every version (CUCC_VERSIONS).
#include <cstdio>
#include <cstdlib>
#include <cmath>

struct Acc { int n; float s; double d; const float *p; };

__device__ float3 pull(float4 a, float4 b, float3 f) {
  float3 r = make_float3(b.x - a.x, b.y - a.y, b.z - a.z);
  float d2 = r.x * r.x + r.y * r.y + r.z * r.z + 0.5f;
  float s = b.w / (d2 * sqrtf(d2));
  f.x += r.x * s;
  f.y += r.y * s;
  f.z += r.z * s;
  return f;
}

__device__ Acc acc_add(Acc a, float v) {
  a.n++;
  a.s += v;
  a.d += (double)v * v;
  return a;
}

__device__ void bump(float3 *q) { q->x += 1.0f; }

__device__ void bumpr(float3 *q, int d) {   // recursive: never inlined
  if (d) bumpr(q, d - 1);
  else q->x += 1.0f;
}

__global__ void records(const float4 *pos, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 me = pos[i];
  float3 f = {0.0f, 0.0f, 0.0f};
  for (int j = 0; j < n; j++) f = pull(me, pos[j], f);   // whole, from a call
  Acc a = {0, 0.0f, 0.0, pos ? &out[0] : nullptr};
  for (int j = 0; j < 8; j++) {
    if ((i + j) % 3 == 0) a = acc_add(a, f.x * j);     // masked whole store
    else a.s -= 0.25f;                                  // masked field store
  }
  a.n += i & 1;
  float3 g = f, h;                                      // whole copy
  h = (i % 2) ? g : make_float3(1.0f, 2.0f, 3.0f);      // ?: of two records
  g.y = -g.y;
  float3 k;                                             // address to an inlined call: per field
  k = h;
  bump(&k);
  float3 k2 = k;                                        // address escapes: kept whole
  bumpr(&k2, 1);
  struct { float v[2]; int w; } arr = {{f.z, 1.0f}, i};  // an array field: kept whole
  arr.v[1] += arr.w;
  float4 sh = make_float4(f.x, (float)i, 0.0f, 0.0f);
  sh.z = __shfl_xor_sync(__activemask(), sh.y, 1);       // a shuffled field
  float *o = out + i * 12;
  o[0] = f.x, o[1] = f.y, o[2] = f.z;
  o[3] = (float)a.n, o[4] = a.s, o[5] = (float)a.d, o[6] = a.p == &out[0];
  o[7] = g.y + h.x + h.y + h.z;
  o[8] = k.x + k2.x;
  o[9] = arr.v[0] + arr.v[1];
  o[10] = sh.z;
  o[11] = me.w;
}

// a record kept per thread across a barrier (whole), and one inside the
// barrier's regions (per field)
__global__ void across(const float4 *pos, float *out, int n) {
  __shared__ float t[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float3 keep = make_float3(pos[i].x, pos[i].y, 2.0f);
  t[threadIdx.x] = keep.x;
  __syncthreads();
  float2 nb;
  nb.x = t[(threadIdx.x + 1) % blockDim.x];
  nb.y = nb.x * keep.z + keep.y;
  out[i] = nb.x + nb.y;
}

static void cpu_pull(const float *a, const float *b, float *f) {
  float r[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  float d2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + 0.5f;
  float s = b[3] / (d2 * sqrtf(d2));
  for (int c = 0; c < 3; c++) f[c] += r[c] * s;
}

static bool near(float x, float y) { return fabsf(x - y) <= 1e-4f * (1.0f + fabsf(y)); }

int main() {
  const int n = 200;   // not a multiple of 32: a warp's last lanes return
  float4 *pos;
  float *out, *out2;
  cudaMallocManaged(&pos, 256 * sizeof(float4));
  cudaMallocManaged(&out, n * 12 * sizeof(float));
  cudaMallocManaged(&out2, 256 * sizeof(float));
  for (int i = 0; i < 256; i++) pos[i] = make_float4(i % 7, (i * 3) % 11, (i * 5) % 13, 1.0f + i % 4);
  records<<<(n + 63) / 64, 64>>>(pos, out, n);
  across<<<1, 256>>>(pos, out2, n);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  int bad = 0;
  for (int i = 0; i < n && bad < 10; i++) {
    const float *p = &pos[i].x, *o = out + i * 12;
    float f[3] = {0, 0, 0};
    for (int j = 0; j < n; j++) cpu_pull(p, &pos[j].x, f);
    int an = 0;
    float as = 0;
    double ad = 0;
    for (int j = 0; j < 8; j++) {
      if ((i + j) % 3 == 0) an++, as += f[0] * j, ad += (double)(f[0] * j) * (f[0] * j);
      else as -= 0.25f;
    }
    an += i & 1;
    float h[3] = {1, 2, 3};
    if (i % 2) h[0] = f[0], h[1] = f[1], h[2] = f[2];
    float want[12] = {f[0], f[1], f[2], (float)an, as, (float)ad, 1, -f[1] + h[0] + h[1] + h[2], 2 * h[0] + 3,
                      f[2] + 1 + i, (float)(i ^ 1), p[3]};
    for (int c = 0; c < 12; c++)
      if (!near(o[c], want[c])) {
        printf("thread %d, value %d: %g, want %g\n", i, c, o[c], want[c]);
        bad++;
      }
  }
  for (int i = 0; i < 256 && bad < 10; i++) {
    float x = pos[(i + 1) % 256].x, want = x + (x * 2.0f + pos[i].y);
    if (!near(out2[i], want)) {
      printf("across, thread %d: %g, want %g\n", i, out2[i], want);
      bad++;
    }
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
