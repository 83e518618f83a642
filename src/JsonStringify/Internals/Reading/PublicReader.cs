namespace JsonStringify.Internals;

/// <summary>Reads values through Jint's public API only; it works on every Jint version this library builds against.</summary>
internal sealed class PublicReader : ValueReader
{
    public static readonly PublicReader Instance = new();

    private PublicReader()
    {
    }
}
