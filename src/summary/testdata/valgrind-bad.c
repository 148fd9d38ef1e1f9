#include <stdlib.h>
#include <stdio.h>
#include <pthread.h>
int shared;
void *worker(void *a) { shared++; return NULL; }
int main(int argc, char **argv) {
  int x; if (x > 3) puts("big");
  pthread_t t1, t2; pthread_create(&t1, 0, worker, 0); pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0); pthread_join(t2, 0);
  if (argc > 1) { int *p = 0; *p = 1; }
  return 0;
}
