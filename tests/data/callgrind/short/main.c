/* main.c, a shorter version than the profile saw */
int helper(void);
int main(void)
{
    return 0;
}




