using BenchmarkDotNet.Running;

// With no arguments the default suite runs without prompting; arguments pass through to BenchmarkDotNet.
string[] effective = args.Length == 0 ? ["--filter", "*"] : args;
BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(effective);
