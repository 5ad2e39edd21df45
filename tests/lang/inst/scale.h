namespace lib {
template <class T> void scale(T *p, int n, int which);
// a class template whose members launch kernels, instantiated explicitly
// by kernels.cu (the cuda-samples' MC_EstimatePiInlineP)
template <class T> struct Runner {
  T add;
  void operator()(T *p, int n);
  T twice(T *p, int n);
};
}
extern const void *fill_ll;
