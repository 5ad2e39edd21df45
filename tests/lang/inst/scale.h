namespace lib {
template <class T> void scale(T *p, int n, int which);
}
extern const void *fill_ll;
