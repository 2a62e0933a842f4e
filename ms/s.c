int va(void) { return 0; }
