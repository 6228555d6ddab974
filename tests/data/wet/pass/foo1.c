int x, y, result;
int main(int argc, char **argv)
{
    if(argc >= 3)
    {
       x = atoi(argv[1]);
       y = atoi(argv[2]);
       result = x * 7;
       result = result + y;
       printf("result is %d\n", result);
    }
}
