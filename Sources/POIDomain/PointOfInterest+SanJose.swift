extension PointOfInterest {
    /// Places around the San Jose McEnery Convention Center, where WWDC 2018 took place: the app's bundled data.
    ///
    /// Positions are read off public maps and rounded to four decimals (about 10 m).
    public static let sanJose: [PointOfInterest] = [
        place("San Jose McEnery Convention Center", 37.3292, -121.8889, .venue),
        place("Center for the Performing Arts", 37.3302, -121.8881, .venue),
        place("The Tech Interactive", 37.3316, -121.8901, .museum),
        place("Plaza de César Chávez", 37.3324, -121.8895, .park),
        place("San Jose Museum of Art", 37.3335, -121.8893, .museum),
        place("Cathedral Basilica of St. Joseph", 37.3339, -121.8887, .landmark),
        place("California Theatre", 37.3327, -121.8868, .venue),
        place("Original Joe's", 37.3311, -121.8865, .restaurant),
        place("San Jose Museum of Quilts & Textiles", 37.3279, -121.8870, .museum),
        place("Children's Discovery Museum", 37.3267, -121.8925, .museum),
        place("St. James Park", 37.3387, -121.8907, .park),
        place("San Pedro Square Market", 37.3364, -121.8943, .restaurant),
        place("Dr. Martin Luther King Jr. Library", 37.3355, -121.8850, .landmark),
        place("San Jose City Hall", 37.3377, -121.8853, .landmark),
        place("San Jose State University Tower Hall", 37.3352, -121.8811, .landmark),
        place("Guadalupe River Park", 37.3340, -121.8980, .park),
        place("SAP Center", 37.3327, -121.9010, .venue),
        place("San Jose Diridon Station", 37.3297, -121.9026, .landmark),
        place("Japanese Friendship Garden", 37.3199, -121.8617, .park),
        place("Rosicrucian Egyptian Museum", 37.3335, -121.9233, .museum),
        place("Municipal Rose Garden", 37.3343, -121.9287, .park),
        place("Winchester Mystery House", 37.3184, -121.9511, .landmark),
    ]

    private static func place(_ name: String, _ latitude: Double, _ longitude: Double, _ category: Category)
        -> PointOfInterest
    {
        PointOfInterest(
            name: name, coordinate: Coordinate(latitude: latitude, longitude: longitude), category: category)
    }
}
