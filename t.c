int missing(void);
int main(void) { return missing(); }
