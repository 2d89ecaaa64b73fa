/// Names for the generated USA map service: the 48 conterminous states and the District of Columbia with
/// their approximate centers and 2000 census populations, and word lists for city and county names.
enum USANames {
    struct State {
        let name: String
        let abbreviation: String
        let fips: String
        let longitude: Double
        let latitude: Double
        let population: Int
    }

    static let states: [State] = [
        State(name: "Alabama", abbreviation: "AL", fips: "01", longitude: -86.8, latitude: 32.8, population: 4_447_100),
        State(name: "Arizona", abbreviation: "AZ", fips: "04", longitude: -111.7, latitude: 34.3, population: 5_130_632),
        State(name: "Arkansas", abbreviation: "AR", fips: "05", longitude: -92.4, latitude: 34.9, population: 2_673_400),
        State(name: "California", abbreviation: "CA", fips: "06", longitude: -119.4, latitude: 37.2, population: 33_871_648),
        State(name: "Colorado", abbreviation: "CO", fips: "08", longitude: -105.5, latitude: 39.0, population: 4_301_261),
        State(name: "Connecticut", abbreviation: "CT", fips: "09", longitude: -72.7, latitude: 41.6, population: 3_405_565),
        State(name: "Delaware", abbreviation: "DE", fips: "10", longitude: -75.5, latitude: 39.0, population: 783_600),
        State(name: "District of Columbia", abbreviation: "DC", fips: "11", longitude: -77.03, latitude: 38.9, population: 572_059),
        State(name: "Florida", abbreviation: "FL", fips: "12", longitude: -81.7, latitude: 28.6, population: 15_982_378),
        State(name: "Georgia", abbreviation: "GA", fips: "13", longitude: -83.4, latitude: 32.7, population: 8_186_453),
        State(name: "Idaho", abbreviation: "ID", fips: "16", longitude: -114.6, latitude: 44.4, population: 1_293_953),
        State(name: "Illinois", abbreviation: "IL", fips: "17", longitude: -89.2, latitude: 40.0, population: 12_419_293),
        State(name: "Indiana", abbreviation: "IN", fips: "18", longitude: -86.3, latitude: 39.9, population: 6_080_485),
        State(name: "Iowa", abbreviation: "IA", fips: "19", longitude: -93.5, latitude: 42.1, population: 2_926_324),
        State(name: "Kansas", abbreviation: "KS", fips: "20", longitude: -98.4, latitude: 38.5, population: 2_688_418),
        State(name: "Kentucky", abbreviation: "KY", fips: "21", longitude: -85.3, latitude: 37.5, population: 4_041_769),
        State(name: "Louisiana", abbreviation: "LA", fips: "22", longitude: -92.0, latitude: 31.0, population: 4_468_976),
        State(name: "Maine", abbreviation: "ME", fips: "23", longitude: -69.2, latitude: 45.4, population: 1_274_923),
        State(name: "Maryland", abbreviation: "MD", fips: "24", longitude: -76.8, latitude: 39.0, population: 5_296_486),
        State(name: "Massachusetts", abbreviation: "MA", fips: "25", longitude: -71.8, latitude: 42.3, population: 6_349_097),
        State(name: "Michigan", abbreviation: "MI", fips: "26", longitude: -85.4, latitude: 44.3, population: 9_938_444),
        State(name: "Minnesota", abbreviation: "MN", fips: "27", longitude: -94.3, latitude: 46.3, population: 4_919_479),
        State(name: "Mississippi", abbreviation: "MS", fips: "28", longitude: -89.7, latitude: 32.7, population: 2_844_658),
        State(name: "Missouri", abbreviation: "MO", fips: "29", longitude: -92.5, latitude: 38.4, population: 5_595_211),
        State(name: "Montana", abbreviation: "MT", fips: "30", longitude: -109.6, latitude: 47.0, population: 902_195),
        State(name: "Nebraska", abbreviation: "NE", fips: "31", longitude: -99.8, latitude: 41.5, population: 1_711_263),
        State(name: "Nevada", abbreviation: "NV", fips: "32", longitude: -116.6, latitude: 39.3, population: 1_998_257),
        State(name: "New Hampshire", abbreviation: "NH", fips: "33", longitude: -71.6, latitude: 43.7, population: 1_235_786),
        State(name: "New Jersey", abbreviation: "NJ", fips: "34", longitude: -74.7, latitude: 40.1, population: 8_414_350),
        State(name: "New Mexico", abbreviation: "NM", fips: "35", longitude: -106.1, latitude: 34.4, population: 1_819_046),
        State(name: "New York", abbreviation: "NY", fips: "36", longitude: -75.5, latitude: 42.9, population: 18_976_457),
        State(name: "North Carolina", abbreviation: "NC", fips: "37", longitude: -79.4, latitude: 35.5, population: 8_049_313),
        State(name: "North Dakota", abbreviation: "ND", fips: "38", longitude: -100.5, latitude: 47.4, population: 642_200),
        State(name: "Ohio", abbreviation: "OH", fips: "39", longitude: -82.8, latitude: 40.3, population: 11_353_140),
        State(name: "Oklahoma", abbreviation: "OK", fips: "40", longitude: -97.5, latitude: 35.6, population: 3_450_654),
        State(name: "Oregon", abbreviation: "OR", fips: "41", longitude: -120.5, latitude: 43.9, population: 3_421_399),
        State(name: "Pennsylvania", abbreviation: "PA", fips: "42", longitude: -77.6, latitude: 40.9, population: 12_281_054),
        State(name: "Rhode Island", abbreviation: "RI", fips: "44", longitude: -71.5, latitude: 41.7, population: 1_048_319),
        State(name: "South Carolina", abbreviation: "SC", fips: "45", longitude: -80.9, latitude: 33.9, population: 4_012_012),
        State(name: "South Dakota", abbreviation: "SD", fips: "46", longitude: -100.2, latitude: 44.4, population: 754_844),
        State(name: "Tennessee", abbreviation: "TN", fips: "47", longitude: -86.3, latitude: 35.8, population: 5_689_283),
        State(name: "Texas", abbreviation: "TX", fips: "48", longitude: -99.3, latitude: 31.5, population: 20_851_820),
        State(name: "Utah", abbreviation: "UT", fips: "49", longitude: -111.7, latitude: 39.3, population: 2_233_169),
        State(name: "Vermont", abbreviation: "VT", fips: "50", longitude: -72.7, latitude: 44.0, population: 608_827),
        State(name: "Virginia", abbreviation: "VA", fips: "51", longitude: -78.8, latitude: 37.5, population: 7_078_515),
        State(name: "Washington", abbreviation: "WA", fips: "53", longitude: -120.4, latitude: 47.4, population: 5_894_121),
        State(name: "West Virginia", abbreviation: "WV", fips: "54", longitude: -80.6, latitude: 38.6, population: 1_808_344),
        State(name: "Wisconsin", abbreviation: "WI", fips: "55", longitude: -89.8, latitude: 44.6, population: 5_363_675),
        State(name: "Wyoming", abbreviation: "WY", fips: "56", longitude: -107.6, latitude: 43.0, population: 493_782),
    ]

    static let countyNames = [
        "Adams", "Allen", "Benton", "Boone", "Brown", "Butler", "Calhoun", "Carroll", "Cass", "Clark", "Clay",
        "Clinton", "Crawford", "Cumberland", "Decatur", "Douglas", "Franklin", "Fulton", "Grant", "Greene",
        "Hamilton", "Hancock", "Harrison", "Henry", "Houston", "Howard", "Jackson", "Jasper", "Jefferson",
        "Johnson", "Knox", "Lake", "Lawrence", "Lee", "Lincoln", "Logan", "Madison", "Marion", "Marshall",
        "Monroe", "Montgomery", "Morgan", "Perry", "Pike", "Polk", "Putnam", "Randolph", "Scott", "Shelby",
        "Union", "Warren", "Washington", "Wayne", "Wilson",
    ]

    static let namePrefixes = [
        "Spring", "Green", "Fair", "Oak", "Maple", "Cedar", "River", "Lake", "Mill", "Clear", "Rock", "Pine",
        "Ash", "Elm", "Glen", "Brook", "Wood", "Sand", "Salem", "Bell", "Rose", "Silver", "Gold", "Red",
        "White", "Black", "North", "South", "East", "West", "Bridge", "Stone", "Hill", "Kings", "Mount",
    ]
    static let nameSuffixes = [
        "field", "ville", "ton", "dale", "view", "wood", "port", "burg", "ford", "land", "ridge", "haven",
        "mont", "wick", "side", " City", " Springs", " Falls", " Grove", " Heights",
    ]

    static let interstates = [
        5, 8, 10, 15, 17, 19, 20, 24, 25, 26, 27, 29, 30, 35, 37, 39, 40, 43, 44, 45, 49, 55, 57, 59, 64, 65,
        69, 70, 71, 72, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 93, 94, 95, 96,
        97, 99,
    ]
}
