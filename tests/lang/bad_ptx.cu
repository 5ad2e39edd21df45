// bad_ptx.cu: inline PTX that cucc does not translate is refused at its
// line, naming the instruction (here a carry chain).
__global__ void carry(unsigned *o, unsigned a, unsigned b) {
  unsigned lo;
  asm("add.cc.u32 %0, %1, %2;" : "=r"(lo) : "r"(a), "r"(b));
  *o = lo;
}

int main() {
  unsigned *o;
  cudaMalloc(&o, 4);
  carry<<<1, 1>>>(o, 1, 2);
  return 0;
}
