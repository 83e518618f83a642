using System.Diagnostics;

namespace JsonStringify.Benchmarks;

/// <summary>
/// Starts this runner again in a process of its own, for the runners that measure in fresh processes.
/// </summary>
internal static class RunnerProcess
{
    /// <summary>
    /// Starts this runner with <paramref name="arguments"/>, its standard output read by the caller, and standard input
    /// or standard error too when asked. Under <c>dotnet</c> the child is given this assembly's path first; an apphost
    /// is started as itself.
    /// </summary>
    public static Process Start(IEnumerable<string> arguments, bool redirectInput = false, bool redirectError = false)
    {
        string host = Environment.ProcessPath ?? throw new InvalidOperationException("The path of this process is unknown.");
        var start = new ProcessStartInfo(host)
        {
            RedirectStandardInput = redirectInput,
            RedirectStandardOutput = true,
            RedirectStandardError = redirectError,
            UseShellExecute = false,
        };
        if (Path.GetFileNameWithoutExtension(host) == "dotnet")
        {
            start.ArgumentList.Add(typeof(RunnerProcess).Assembly.Location);
        }

        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        return Process.Start(start) ?? throw new InvalidOperationException($"Could not start {host}.");
    }
}
