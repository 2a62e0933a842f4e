int a1(void) { return 1; }
