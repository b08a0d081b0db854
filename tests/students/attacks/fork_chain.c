/* A compiled helper that forks and exits as fast as it can, so that no scan of /proc
   catches it; it names itself "cchain" and stops by itself after 10 seconds.
   tests/test_grader_child.py compiles it (where a C compiler is) into a submission. */
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    time_t end = time(NULL) + 10;
    prctl(PR_SET_NAME, "cchain", 0, 0, 0);
    for (long i = 0; i < 5000000 && time(NULL) < end; i++) {
        pid_t pid = fork();
        if (pid > 0)
            _exit(0);
        if (pid < 0)
            usleep(1000);
    }
    return 0;
}
