// structs.cu: structs by value: passed to a kernel, to __device__ functions,
// returned from them; a struct with a nested array and a nested struct;
// arrays of structs in global memory; float4 and make_float4.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

struct Vec2 { float x, y; };
struct Particle {
  struct Vec2 pos, vel;   // nested structs
  int tags[3];            // nested array
  char kind;
  double mass;
};
struct Params {           // passed to the kernel by value
  int n;
  float dt;
  int scale[4];
  struct Vec2 gravity;
};

__device__ Vec2 add(Vec2 a, Vec2 b) { Vec2 r = {a.x + b.x, a.y + b.y}; return r; }
__device__ Vec2 scale(Vec2 a, float s) { a.x *= s; a.y *= s; return a; }  // a is a copy
__device__ Particle step(Particle p, const Params *pr, int i) {
  p.vel = add(p.vel, scale(pr->gravity, pr->dt));
  p.pos = add(p.pos, scale(p.vel, pr->dt));
  p.tags[i % 3] += pr->scale[i % 4];
  p.kind = p.pos.y < 0.0f ? 'u' : 'o';
  p.mass *= 1.5;
  return p;
}

__global__ void advance(Particle *ps, Params pr, float4 *v4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pr.n) return;
  Particle before = ps[i];            // struct copy from global memory
  Particle after = step(before, &pr, i);
  ps[i] = after;
  pr.dt = -1.0f;                      // the kernel's own copy; no effect outside
  float4 q = make_float4(after.pos.x, after.pos.y, (float)after.tags[0], pr.dt);
  q.w += before.vel.x;
  v4[i] = q;
  ps[i].tags[2] = ps[i].tags[0] + ps[i].tags[1] + (int)sizeof(Particle);
}

static Vec2 hadd(Vec2 a, Vec2 b) { Vec2 r = {a.x + b.x, a.y + b.y}; return r; }
static Vec2 hscale(Vec2 a, float s) { a.x *= s; a.y *= s; return a; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1001;
  Particle *hp = (Particle *)malloc(n * sizeof(Particle));
  Particle *got = (Particle *)malloc(n * sizeof(Particle));
  float4 *g4 = (float4 *)malloc(n * sizeof(float4));
  for (int i = 0; i < n; i++) {
    hp[i].pos.x = (float)i; hp[i].pos.y = (float)(i % 13) - 6.0f;
    hp[i].vel.x = 0.5f * (i % 5); hp[i].vel.y = (float)(i % 3);
    hp[i].tags[0] = i; hp[i].tags[1] = -i; hp[i].tags[2] = 7;
    hp[i].kind = 'x'; hp[i].mass = 1.0 + i;
  }
  Params pr;
  pr.n = n; pr.dt = 0.5f;
  for (int j = 0; j < 4; j++) pr.scale[j] = (j + 1) * 100;
  pr.gravity.x = 0.0f; pr.gravity.y = -9.75f;
  Particle *dp; float4 *d4;
  CHECK(cudaMalloc(&dp, n * sizeof(Particle)));
  CHECK(cudaMalloc(&d4, n * sizeof(float4)));
  CHECK(cudaMemcpy(dp, hp, n * sizeof(Particle), cudaMemcpyHostToDevice));
  advance<<<(n + 127) / 128, 128>>>(dp, pr, d4);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got, dp, n * sizeof(Particle), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(g4, d4, n * sizeof(float4), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    Particle w = hp[i];
    w.vel = hadd(w.vel, hscale(pr.gravity, pr.dt));
    w.pos = hadd(w.pos, hscale(w.vel, pr.dt));
    w.tags[i % 3] += pr.scale[i % 4];
    w.kind = w.pos.y < 0.0f ? 'u' : 'o';
    w.mass *= 1.5;
    float4 q = make_float4(w.pos.x, w.pos.y, (float)w.tags[0], -1.0f + hp[i].vel.x);
    w.tags[2] = w.tags[0] + w.tags[1] + (int)sizeof(Particle);
    const Particle *g = &got[i];
    if ((g->pos.x != w.pos.x || g->pos.y != w.pos.y || g->vel.x != w.vel.x ||
         g->vel.y != w.vel.y || g->tags[0] != w.tags[0] || g->tags[1] != w.tags[1] ||
         g->tags[2] != w.tags[2] || g->kind != w.kind || g->mass != w.mass) && bad++ < 10)
      printf("particle %d: pos %g,%g vel %g,%g tags %d,%d,%d kind %c mass %g; "
             "want pos %g,%g vel %g,%g tags %d,%d,%d kind %c mass %g\n", i,
             g->pos.x, g->pos.y, g->vel.x, g->vel.y, g->tags[0], g->tags[1], g->tags[2],
             g->kind, g->mass, w.pos.x, w.pos.y, w.vel.x, w.vel.y, w.tags[0],
             w.tags[1], w.tags[2], w.kind, w.mass);
    if ((g4[i].x != q.x || g4[i].y != q.y || g4[i].z != q.z || g4[i].w != q.w) && bad++ < 10)
      printf("v4[%d] = %g %g %g %g, want %g %g %g %g\n", i, g4[i].x, g4[i].y, g4[i].z,
             g4[i].w, q.x, q.y, q.z, q.w);
  }
  cudaFree(dp); cudaFree(d4);
  if (bad) { printf("%d mismatches\nFAIL\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}
