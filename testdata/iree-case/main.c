int iree_call(const char *s);

int main(void)
{
	return iree_call("x");
}
