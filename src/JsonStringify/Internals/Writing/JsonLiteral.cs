namespace JsonStringify.Internals;

/// <summary>
/// The three literal names of JSON. Their values index the writer's table of their tokens (<see cref="JsonWriter"/>):
/// <see cref="False"/>, the only one of five chars, is last, so that a literal's length is 4 plus its value halved.
/// </summary>
internal enum JsonLiteral
{
    Null = 0,
    True = 1,
    False = 2,
}
