// classes.cu: C++ classes in device code as nvcc compiles them: base
// classes (single, multiple, a base's tail padding holding members),
// virtual functions dispatched on the dynamic type (lanes of one warp
// holding objects of different types), pure virtual functions, virtual
// destructors, destructors on every way out of a scope, new/delete,
// new[]/delete[] and placement new, and a class template hierarchy.
// Each kernel is checked against the same computation on the CPU.
#include <cstdio>
#include <cstdlib>
#include <new>

static int fails = 0;
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); fails++; } } while (0)

// ---- inheritance ----
struct Pt { int x, y; __host__ __device__ Pt(int a, int b) : x(a), y(b) {} __host__ __device__ int sum() const { return x + y; } };
struct Named { int tag; __host__ __device__ Named(int t) : tag(t) {} __host__ __device__ int twice() { return 2 * tag; } };
struct Pt3 : Pt, Named {   // two bases: Named at a nonzero offset
  int z;
  __host__ __device__ Pt3(int a, int b, int c) : Pt(a, b), Named(a * 100), z(c) {}
  __host__ __device__ int all() const { return sum() + z + tag; }
};
__device__ int named_tag(Named *n) { return n->tag; }   // a pointer to the second base

struct Poly { __device__ virtual int id() const { return 1; } int a; __device__ Poly() : a(5) {} };
struct Packed : Poly { int b; __device__ Packed() : b(7) {} };   // b sits in Poly's tail padding

struct Kind { int k; __device__ Kind() : k(1) {} __device__ virtual int kind() const { return k; } };
struct Kind2 : Kind { int extra; __device__ Kind2() : extra(7) {} __device__ int kind() const override { return 20 + extra; } };
__device__ int kind_of(const Kind &x) { return x.kind(); }

__global__ void inherit(int *o) {
  int t = threadIdx.x;
  Pt3 p(t, 2 * t, 3 * t);
  o[t * 8 + 0] = p.all();                // base members and a base's function
  o[t * 8 + 1] = p.twice();              // the second base's function
  o[t * 8 + 2] = named_tag(&p);          // derived-to-base pointer, adjusted
  Named *n = &p;
  Pt3 *back = static_cast<Pt3 *>(n);     // and back
  o[t * 8 + 3] = back->z;
  Pt &r = p;
  r.x += 1;                              // through a base reference
  o[t * 8 + 4] = p.x;
  Packed k;
  o[t * 8 + 5] = k.a * 10 + k.b;
  o[t * 8 + 6] = (int)sizeof(Packed);
  o[t * 8 + 7] = k.id();
  Kind2 k2;
  Kind sliced = k2;   // a copy is of the class it is declared as
  Kind assigned;
  assigned = k2;
  o[256 + t] = kind_of(sliced) * 1000 + kind_of(assigned) * 100 + kind_of(k2);
}

// ---- virtual functions ----
struct Shape {
  int s;
  __device__ Shape(int v) : s(v) {}
  __device__ virtual int area() const = 0;
  __device__ virtual int sides() const { return 0; }
  __device__ int twice_area() const { return 2 * area(); }   // virtual call through this
  __device__ virtual ~Shape() {}
};
struct Square : Shape { __device__ Square(int v) : Shape(v) {} __device__ int area() const override { return s * s; } __device__ int sides() const override { return 4; } };
struct Tri : Shape { int h; __device__ Tri(int v) : Shape(v), h(v + 1) {} __device__ int area() const override { return s * h / 2; } __device__ int sides() const override { return 3; } };
struct Circle : Shape { __device__ Circle(int v) : Shape(v) {} __device__ int area() const override { return 3 * s * s; } };
struct BigSquare : Square { __device__ BigSquare(int v) : Square(v * 2) {} __device__ int sides() const override { return 40; } };

__device__ int dtors;   // virtual destructors run

struct Counted : Shape {
  __device__ Counted(int v) : Shape(v) {}
  __device__ int area() const override { return -s; }
  __device__ ~Counted() { atomicAdd(&dtors, 1); }
};

__device__ int by_ref(const Shape &sh) { return sh.area() * 100 + sh.sides(); }

__global__ void virtuals(int *o) {
  int t = threadIdx.x;
  Square a(t);
  Tri b(t);
  Circle c(t);
  BigSquare d(t);
  // lanes of one warp hold objects of four types
  Shape *sh = t % 4 == 0 ? (Shape *)&a : t % 4 == 1 ? (Shape *)&b : t % 4 == 2 ? (Shape *)&c : (Shape *)&d;
  o[t * 4 + 0] = sh->area();
  o[t * 4 + 1] = sh->twice_area();
  o[t * 4 + 2] = by_ref(*sh);
  Shape *h = t % 2 ? (Shape *)new Counted(t) : (Shape *)new Tri(t);   // objects new builds
  o[t * 4 + 3] = h->area() + h->sides();
  delete h;   // virtual destructor: ~Counted on odd lanes
}

// ---- destructors on every way out ----
struct Log { int *at; int n; };
__device__ void log_put(Log *l, int v) { l->at[l->n++] = v; }
struct Guard {
  Log *l; int id;
  __device__ Guard(Log *lg, int i) : l(lg), id(i) { log_put(l, i); }
  __device__ ~Guard() { log_put(l, -id); }
};
struct Pair { Guard g; int k; };   // a member with a destructor

__device__ int early(Log *l, int v) {
  Guard a(l, 1);
  if (v > 2) {
    Guard b(l, 2);
    return v * 10;   // ~b, ~a
  }
  Guard c(l, 3);
  return v;          // ~c, ~a
}

__global__ void exits(int *o, int stride) {
  int t = threadIdx.x;
  Log l = {o + t * stride, 0};
  {
    Guard g(&l, 10);
  }                                       // 10, -10
  for (int i = 0; i < 4; i++) {
    Guard g(&l, 20 + i);
    if (i == 1) continue;                 // -21
    if (i == 2 + t % 2) break;            // -22 or -23
    log_put(&l, 100);
  }
  log_put(&l, early(&l, t % 5));
  Guard arr[2] = {Guard(&l, 30), Guard(&l, 31)};
  (void)arr;
  log_put(&l, 0);
  // ~arr[1], ~arr[0] at the end
}

__global__ void exits_end(int *o, int stride) {   // where the log ended
  int t = threadIdx.x;
  int n = 0;
  while (o[t * stride + n] != 9999) n++;
  o[t * stride + stride - 1] = n;
}

// ---- new, delete, new[], delete[], placement new ----
__device__ int made, unmade;
struct Obj { int v; __device__ Obj() : v(42) { atomicAdd(&made, 1); } __device__ ~Obj() { atomicAdd(&unmade, 1); } };
struct Plain { int a; float b; };

__global__ void news(int *o, char *pool) {
  int t = threadIdx.x;
  int *p = new int(t * 3);
  int *q = new int[t + 1];
  for (int i = 0; i <= t; i++) q[i] = i * i;
  int s = 0;
  for (int i = 0; i <= t; i++) s += q[i];
  Obj *objs = new Obj[3];
  Obj *one = new Obj;
  Plain *pl = new (pool + t * 16) Plain{t, 0.5f};   // placement new in a buffer
  int *row = new (pool + 4096 + t * 16) int[4];      // placement new[]
  Obj *in = new (pool + 6144 + t * 8) Obj;            // placement new of a class, and
  in->~Obj();                                         // its destructor called by name
  row[3] = t;
  o[t * 6 + 0] = *p;
  o[t * 6 + 1] = s;
  o[t * 6 + 2] = objs[0].v + objs[2].v + one->v;
  o[t * 6 + 3] = pl->a + (int)(pl->b * 2);
  o[t * 6 + 4] = row[3];
  o[t * 6 + 5] = p != nullptr && q != nullptr;
  delete p;
  delete[] q;
  delete[] objs;   // three destructors
  delete one;
}

// ---- a class template hierarchy (instantiations read by a probe) ----
template <class T> struct Box {
  __device__ virtual T get() const = 0;
  __device__ virtual ~Box() {}
  __device__ T twice() const { return get() * 2; }
};
template <class T> struct Val : Box<T> {
  T v;
  __device__ Val(T x) : v(x) {}
  __device__ T get() const override { return v; }
};
template <class T, int N> struct Scaled : Val<T> {
  __device__ Scaled(T x) : Val<T>(x) {}
  __device__ T get() const override { return this->v * N; }
};

__global__ void templates(float *o) {
  int t = threadIdx.x;
  Box<float> *b = t % 2 ? (Box<float> *)new Scaled<float, 3>(t) : (Box<float> *)new Val<float>(t + 0.5f);
  o[t] = b->twice();
  delete b;
}

// ---- as CUB writes it: an empty base, member templates of a class
// template, a reference member to a TempStorage, references as parameters ----
struct Empty {};
template <class T> struct Acc : Empty {
  T total;
  template <class U> __device__ void add(const U &u) { total += (T)u; }
  template <int N> __device__ T times() const { return total * N; }
};
template <class T> struct Reducer : Empty {
  struct TempStorage { T v[32]; };
  TempStorage &ts;
  __device__ Reducer(TempStorage &s) : ts(s) {}
  __device__ T sum(T x) {
    ts.v[threadIdx.x] = x;
    __syncwarp();
    T s = 0;
    for (int i = 0; i < 32; i++) s += ts.v[i];
    return s;
  }
};
__device__ void bump(int &r, int by) { r += by; }
__global__ void cubish(int *o) {
  Acc<int> a;
  a.total = threadIdx.x;
  a.add(2.5f);
  a.add<short>(3);
  int &ref = o[threadIdx.x];
  bump(ref, a.times<3>());
  __shared__ typename Reducer<int>::TempStorage ts;
  Reducer<int> r(ts);
  o[32 + threadIdx.x] = r.sum(threadIdx.x * 2);
}

int main() {
  const int T = 32;
  int *o;
  cudaMallocManaged(&o, 64 * 1024 * sizeof(int));

  // inheritance
  inherit<<<1, T>>>(o);
  cudaDeviceSynchronize();
  for (int t = 0; t < T; t++) {
    int *r = o + t * 8;
    CHECK(r[0] == t + 2 * t + 3 * t + 100 * t, "all %d", t);
    CHECK(r[1] == 200 * t && r[2] == 100 * t && r[3] == 3 * t && r[4] == t + 1, "bases %d: %d %d %d %d", t, r[1], r[2], r[3], r[4]);
    CHECK(r[5] == 57 && r[6] == 16 && r[7] == 1, "tail padding: %d %d %d", r[5], r[6], r[7]);
    CHECK(o[256 + t] == 1127, "sliced copies %d: %d", t, o[256 + t]);
  }

  // virtual functions, under divergence
  int zero = 0;
  cudaMemcpyToSymbol(dtors, &zero, sizeof zero);
  virtuals<<<1, 64>>>(o);
  cudaDeviceSynchronize();
  for (int t = 0; t < 64; t++) {
    int area, sides;
    switch (t % 4) {
    case 0: area = t * t; sides = 4; break;
    case 1: area = t * (t + 1) / 2; sides = 3; break;
    case 2: area = 3 * t * t; sides = 0; break;
    default: area = 4 * t * t; sides = 40; break;
    }
    int *r = o + t * 4;
    CHECK(r[0] == area && r[1] == 2 * area && r[2] == area * 100 + sides, "shape %d: %d %d %d", t, r[0], r[1], r[2]);
    int h = t % 2 ? -t : t * (t + 1) / 2 + 3;
    CHECK(r[3] == h, "new'd shape %d: %d, want %d", t, r[3], h);
  }
  int nd;
  cudaMemcpyFromSymbol(&nd, dtors, sizeof nd);
  CHECK(nd == 32, "virtual destructors: %d", nd);

  // destructors on every way out
  const int S = 64;
  for (int i = 0; i < T * S; i++) o[i] = 9999;
  exits<<<1, T>>>(o, S);
  exits_end<<<1, T>>>(o, S);
  cudaDeviceSynchronize();
  for (int t = 0; t < T; t++) {
    int want[S], n = 0;
    want[n++] = 10; want[n++] = -10;
    for (int i = 0; i < 4; i++) {
      want[n++] = 20 + i;
      if (i == 1) { want[n++] = -21; continue; }
      if (i == 2 + t % 2) { want[n++] = -(20 + i); break; }
      want[n++] = 100;
      want[n++] = -(20 + i);
    }
    int v = t % 5;
    want[n++] = 1;
    if (v > 2) { want[n++] = 2; want[n++] = -2; want[n++] = -1; want[n++] = v * 10; }
    else { want[n++] = 3; want[n++] = -3; want[n++] = -1; want[n++] = v; }
    want[n++] = 30; want[n++] = 31; want[n++] = 0; want[n++] = -31; want[n++] = -30;
    int *r = o + t * S;
    bool ok = r[S - 1] == n;
    for (int i = 0; ok && i < n; i++) ok = r[i] == want[i];
    CHECK(ok, "destructor order of thread %d (log of %d, want %d)", t, r[S - 1], n);
  }

  // new and delete
  char *pool;
  cudaMalloc(&pool, 8192);
  cudaMemcpyToSymbol(made, &zero, sizeof zero);
  cudaMemcpyToSymbol(unmade, &zero, sizeof zero);
  news<<<1, T>>>(o, pool);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "news");
  for (int t = 0; t < T; t++) {
    int *r = o + t * 6, s = 0;
    for (int i = 0; i <= t; i++) s += i * i;
    CHECK(r[0] == 3 * t && r[1] == s && r[2] == 126 && r[3] == t + 1 && r[4] == t && r[5] == 1,
          "new %d: %d %d %d %d %d %d", t, r[0], r[1], r[2], r[3], r[4], r[5]);
  }
  int m, u;
  cudaMemcpyFromSymbol(&m, made, sizeof m);
  cudaMemcpyFromSymbol(&u, unmade, sizeof u);
  CHECK(m == 5 * T && u == 5 * T, "constructed %d, destroyed %d, want %d", m, u, 5 * T);

  // class templates
  float *f = (float *)o;
  templates<<<1, T>>>(f);
  cudaDeviceSynchronize();
  for (int t = 0; t < T; t++) {
    float want = t % 2 ? 2.0f * t * 3 : 2.0f * (t + 0.5f);
    CHECK(f[t] == want, "template %d: %g, want %g", t, f[t], want);
  }

  // as CUB writes it
  for (int i = 0; i < 64; i++) o[i] = i;
  cubish<<<1, 32>>>(o);
  cudaDeviceSynchronize();
  for (int t = 0; t < 32; t++)
    CHECK(o[t] == t + (t + 5) * 3 && o[32 + t] == 992, "cub-like %d: %d %d", t, o[t], o[32 + t]);

  if (fails) return 1;
  printf("PASS\n");
  return 0;
}
