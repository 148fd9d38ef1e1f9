#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; int x;
void *a(void *p) { pthread_mutex_lock(&m); x++; pthread_mutex_unlock(&m); return 0; }
void *b(void *p) { x++; return 0; }
int main() { pthread_t t1, t2; pthread_create(&t1,0,a,0); pthread_create(&t2,0,b,0); pthread_join(t1,0); pthread_join(t2,0); return 0; }
