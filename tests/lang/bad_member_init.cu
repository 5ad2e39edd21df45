// bad_member_init.cu: a class template's default member initializer that
// depends on its parameters is refused by name (libclang shows an implicit
// instance no fields, so the pattern's expression would be read, not the
// instance's).
template <typename T> struct Box {
  T x = (T)7 * sizeof(T);
  int n = 4;
};
__global__ void k(float *o) { Box<float> b; o[0] = b.x + b.n; }
int main() { k<<<1, 1>>>(0); return 0; }
