using System.Diagnostics;

namespace JsonStringify.Tests;

/// <summary>
/// The README's code blocks are compiled code: the Quick start is tests/QuickStart/Program.cs, and the aliases are the
/// first lines of ReadMe/Aliases.cs. These tests fail when a block and its source differ, and when the Quick start
/// prints anything but what its comments say.
/// </summary>
public class ReadMeTests
{
    private static readonly string s_root = FindRepositoryRoot();

    [Fact]
    public void QuickStartBlockIsTheTestedProgram()
    {
        string program = ReadText("tests", "QuickStart", "Program.cs");
        Assert.Equal(program, CodeBlockAfter("## Quick start"));
    }

    [Fact]
    public void AliasBlockIsWhereTheAliasesAreCompiled()
    {
        string source = ReadText("tests", "JsonStringify.Tests", "ReadMe", "Aliases.cs");
        Assert.Equal(source[..(source.IndexOf("\n\n", StringComparison.Ordinal) + 1)], CodeBlockAfter("### Beside System.Text.Json"));
    }

    // The program runs in a process of its own, in an empty directory (it writes order.json), on whichever reader its
    // self-test picks: its output is the same on both.
    [Fact]
    public async Task QuickStartPrintsWhatItsCommentsSay()
    {
        string program = ReadText("tests", "QuickStart", "Program.cs");
        string directory = Directory.CreateTempSubdirectory("quickstart-").FullName;
        try
        {
            var start = new ProcessStartInfo("dotnet") { WorkingDirectory = directory, RedirectStandardOutput = true, RedirectStandardError = true };
            start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "QuickStart.dll"));
            using Process process = Process.Start(start)!;
            using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(2));
            Task<string> error = process.StandardError.ReadToEndAsync(timeout.Token);
            string output = await process.StandardOutput.ReadToEndAsync(timeout.Token);
            await process.WaitForExitAsync(timeout.Token);
            Assert.True(process.ExitCode == 0, await error);
            Assert.Equal(ExpectedOutput(program), output.ReplaceLineEndings("\n").TrimEnd('\n').Split('\n'));
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    // What the comments say a program prints: the comment at the end of a Console.WriteLine line, or, when it has none,
    // the comment lines right below it.
    private static List<string> ExpectedOutput(string program)
    {
        var expected = new List<string>();
        string[] lines = program.Split('\n');
        for (int i = 0; i < lines.Length; i++)
        {
            int call = lines[i].IndexOf("Console.WriteLine(", StringComparison.Ordinal);
            if (call < 0)
            {
                continue;
            }

            int comment = lines[i].IndexOf("// ", call, StringComparison.Ordinal);
            if (comment >= 0)
            {
                expected.Add(lines[i][(comment + 3)..]);
                continue;
            }

            for (int j = i + 1; j < lines.Length && lines[j].TrimStart().StartsWith("// ", StringComparison.Ordinal); j++)
            {
                expected.Add(lines[j].TrimStart()[3..]);
            }
        }

        Assert.NotEmpty(expected);
        return expected;
    }

    // The first ```csharp block after the heading of README.md that starts with these words, with its final newline.
    private static string CodeBlockAfter(string heading)
    {
        string readMe = ReadText("README.md");
        int at = readMe.IndexOf("\n" + heading, StringComparison.Ordinal);
        Assert.True(at >= 0, $"README.md has no heading '{heading}'");
        int start = readMe.IndexOf("```csharp\n", at, StringComparison.Ordinal) + "```csharp\n".Length;
        int end = readMe.IndexOf("\n```\n", start, StringComparison.Ordinal) + 1;
        return readMe[start..end];
    }

    private static string ReadText(params string[] path) =>
        File.ReadAllText(Path.Combine([s_root, .. path])).ReplaceLineEndings("\n");

    private static string FindRepositoryRoot()
    {
        for (DirectoryInfo? directory = new(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "Json.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("Json.sln not found above " + AppContext.BaseDirectory);
    }
}
